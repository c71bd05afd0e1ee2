package org.offlink.ltowrapper.plan;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.offlink.bridge.OfflinkFlags;
import org.offlink.bridge.gcc.GccInstallation;
import org.offlink.bridge.gcc.GccRelease;
import org.offlink.ltowrapper.cache.CacheRequest;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.options.DecodedOption;
import org.offlink.ltowrapper.run.DumpNames;

/**
 * One lto-wrapper link, resolved once from its argv, {@code COLLECT_GCC_OPTIONS} and environment
 * ({@link PlanResolver}) and passed down as a value: every later step takes what it needs from it,
 * and none reads the environment or re-classifies the arguments.
 *
 * @param argv0 the program name as invoked (echoed with {@code -v})
 * @param args the arguments after argv[0], {@code @file}s expanded
 * @param collectGcc {@code COLLECT_GCC}: the driver run for WPA/LTRANS
 * @param linkOptions COLLECT_GCC_OPTIONS (plus COLLECT_AS_OPTIONS as {@code -Xassembler} pairs),
 *     decoded
 * @param offloadObjects the {@code -foffload-objects=} file, if given (plugin mode with offload)
 * @param inputs every other argument in order, classified: input files (LTO objects, maybe {@code
 *     archive.a@0xOFF}) and pass-through options such as {@code -fresolution=}
 * @param environment the environment children get
 * @param settings what the link options and the environment decide
 */
public record LinkPlan(
    String argv0,
    List<String> args,
    String collectGcc,
    List<DecodedOption> linkOptions,
    Optional<String> offloadObjects,
    List<LinkArgument> inputs,
    Map<String, String> environment,
    Settings settings) {
  /** Copies and checks the fields. */
  public LinkPlan {
    Objects.requireNonNull(argv0, "argv0");
    args = List.copyOf(args);
    Objects.requireNonNull(collectGcc, "collectGcc");
    linkOptions = List.copyOf(linkOptions);
    Objects.requireNonNull(offloadObjects, "offloadObjects");
    inputs = List.copyOf(inputs);
    environment = Map.copyOf(environment);
    Objects.requireNonNull(settings, "settings");
  }

  /** The input files among the arguments, in order. */
  public List<InputFile> inputFiles() {
    List<InputFile> files = new ArrayList<>();
    for (LinkArgument a : inputs) {
      a.file().ifPresent(files::add);
    }
    return files;
  }

  /**
   * Whether collect2 (GCC's non-plugin link, {@code -fno-use-linker-plugin}) runs lto-wrapper: it
   * passes the objects only, never {@code -fresolution=}, which the plugin always passes.
   */
  public boolean viaCollect2() {
    for (LinkArgument a : inputs) {
      if (a.isOption() && a.spelling().startsWith("-fresolution=")) {
        return false;
      }
    }
    return true;
  }

  /**
   * Flags and names taken from the link-time options and the environment.
   *
   * @param linkerOutput {@code -o}
   * @param saveTemps {@code -save-temps} or {@code -save-temps=}
   * @param verbose {@code -v}
   * @param noPartition {@code -flto-partition=none}
   * @param skipDebug the last {@code -g} was {@code -g0}
   * @param dumpdir an incoming {@code -dumpdir}
   * @param dump the dump prefix and the names derived from it
   * @param output what the link produces
   * @param gcc the GCC installation running the link, when its environment names it ({@link
   *     GccInstallation#fromEnvironment}: {@code COLLECT_LTO_WRAPPER}, then {@code COMPILER_PATH})
   * @param targets {@code OFFLOAD_TARGET_NAMES} split at colons (empty names kept, as GCC does)
   * @param offloadTargetDefault {@code OFFLOAD_TARGET_DEFAULT} is set
   * @param compilerPath {@code COMPILER_PATH}
   * @param libraryPath {@code LIBRARY_PATH}
   * @param makeflags {@code MAKEFLAGS}
   * @param parallelOffload an explicit choice to build offload images concurrently with each other
   *     and with host LTO ({@code OFFLINK_PARALLEL_OFFLOAD=1|0}, {@code --parallel-offload}, {@code
   *     --serial-offload}); empty leaves the default to {@code OffloadPolicy}
   * @param flags offlink's {@code OFFLINK_FLAGS}
   * @param mkoffloadSubprocess {@code OFFLINK_MKOFFLOAD_SUBPROCESS}: run even offlink's own
   *     mkoffload as a program
   * @param cache what the flags and the environment ask of the device-image cache
   * @param report the link report's file ({@code OFFLINK_REPORT}, relative to the link's folder)
   */
  public record Settings(
      Optional<String> linkerOutput,
      boolean saveTemps,
      boolean verbose,
      boolean noPartition,
      boolean skipDebug,
      Optional<String> dumpdir,
      DumpNames dump,
      LinkerOutput output,
      Optional<GccInstallation> gcc,
      List<String> targets,
      boolean offloadTargetDefault,
      Optional<String> compilerPath,
      Optional<String> libraryPath,
      Optional<String> makeflags,
      Optional<Boolean> parallelOffload,
      OfflinkFlags flags,
      boolean mkoffloadSubprocess,
      CacheRequest cache,
      Optional<Path> report) {
    /** Copies the targets. */
    public Settings {
      targets = List.copyOf(targets);
    }

    /** What the GCC running the link does differently; GCC 12's behaviour when it is not named. */
    public GccRelease gccRelease() {
      return GccRelease.of(gcc.map(GccInstallation::major).orElse(12));
    }

    /**
     * The targets whose images this link builds, in {@code OFFLOAD_TARGET_NAMES} order: none
     * without {@code COMPILER_PATH}, where no mkoffload can be looked up.
     */
    public List<String> offloadTargets() {
      return compilerPath.isPresent() ? targets : List.of();
    }
  }
}
