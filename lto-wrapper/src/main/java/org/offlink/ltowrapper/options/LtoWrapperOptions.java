package org.offlink.ltowrapper.options;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.offlink.bridge.OfflinkFlags;
import org.offlink.bridge.gcc.GccInstallation;
import org.offlink.bridge.gcc.GccRelease;

/**
 * One lto-wrapper invocation after {@code @file} expansion and environment decoding.
 *
 * @param argv0 the program name as invoked (echoed with {@code -v})
 * @param args the expanded arguments after argv[0]
 * @param collectGcc {@code COLLECT_GCC}: the driver run for WPA/LTRANS
 * @param linkOptions COLLECT_GCC_OPTIONS (plus COLLECT_AS_OPTIONS as {@code -Xassembler} pairs),
 *     decoded
 * @param offloadObjects the {@code -foffload-objects=} file, if given (plugin mode with offload)
 * @param inputs every other argument in order: LTO objects (maybe {@code archive.a@0xOFF}) and
 *     pass-through options such as {@code -fresolution=} and {@code -flinker-output=}
 * @param environment the environment children get
 * @param settings what lto-wrapper read from the link options and environment
 */
public record LtoWrapperOptions(
    String argv0,
    List<String> args,
    String collectGcc,
    List<DecodedOption> linkOptions,
    Optional<String> offloadObjects,
    List<String> inputs,
    Map<String, String> environment,
    Settings settings) {
  /** Copies and checks the fields. */
  public LtoWrapperOptions {
    Objects.requireNonNull(argv0, "argv0");
    args = List.copyOf(args);
    Objects.requireNonNull(collectGcc, "collectGcc");
    linkOptions = List.copyOf(linkOptions);
    Objects.requireNonNull(offloadObjects, "offloadObjects");
    inputs = List.copyOf(inputs);
    environment = Map.copyOf(environment);
    Objects.requireNonNull(settings, "settings");
  }

  /**
   * Flags and names taken from the link-time options and the environment.
   *
   * @param linkerOutput {@code -o}
   * @param saveTemps {@code -save-temps} or {@code -save-temps=}
   * @param verbose {@code -v}
   * @param noPartition {@code -flto-partition=none}
   * @param linkerOutputRel {@code -flinker-output=rel} among the link options
   * @param skipDebug the last {@code -g} was {@code -g0}
   * @param dumpdir an incoming {@code -dumpdir}
   * @param offloadTargetNames {@code OFFLOAD_TARGET_NAMES}
   * @param offloadTargetDefault {@code OFFLOAD_TARGET_DEFAULT} is set
   * @param compilerPath {@code COMPILER_PATH}
   * @param libraryPath {@code LIBRARY_PATH}
   * @param makeflags {@code MAKEFLAGS}
   * @param parallelOffload an explicit choice to build offload images concurrently with each other
   *     and with host LTO ({@code OFFLINK_PARALLEL_OFFLOAD=1|0}, {@code --parallel-offload}, {@code
   *     --serial-offload}); empty leaves the default to {@link OffloadPolicy}
   * @param flags offlink's {@code OFFLINK_FLAGS}
   * @param linkerOutputKind {@code -flinker-output=} among the arguments (plugin mode), else what
   *     the link options say ({@code dyn} for {@code -shared}, {@code exec} for {@code -no-pie} or
   *     {@code -static}), else empty
   */
  public record Settings(
      Optional<String> linkerOutput,
      boolean saveTemps,
      boolean verbose,
      boolean noPartition,
      boolean linkerOutputRel,
      boolean skipDebug,
      Optional<String> dumpdir,
      Optional<String> offloadTargetNames,
      boolean offloadTargetDefault,
      Optional<String> compilerPath,
      Optional<String> libraryPath,
      Optional<String> makeflags,
      Optional<Boolean> parallelOffload,
      OfflinkFlags flags,
      Optional<String> linkerOutputKind) {
    /**
     * What the GCC running this link does differently: its major is read from the first GCC library
     * directory on {@code COMPILER_PATH} ({@code /usr/libexec/gcc/<triplet>/14/}); GCC 12's
     * behaviour when there is none.
     */
    public GccRelease gccRelease() {
      return GccRelease.of(
          compilerPath
              .flatMap(GccInstallation::fromCompilerPath)
              .map(GccInstallation::major)
              .orElse(12));
    }
  }
}
