package org.offlink.bridge.gcn;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.offlink.bridge.gcc.AccelEnvironment;
import org.offlink.bridge.gcc.AccelTools;
import org.offlink.bridge.gcc.GccInstallation;
import org.offlink.bridge.gcc.MkoffloadDumpNames;
import org.offlink.bridge.gcc.OffloadAbi;
import org.offlink.bridge.gcc.OffloadOptions;
import org.offlink.bridge.gcc.OmpRequiresFile;
import org.offlink.bridge.gcc.UnsupportedGccException;
import org.offlink.bridge.image.GcnImage;
import org.offlink.bridge.image.HsaXnack;
import org.offlink.bridge.partition.DevicePartitioning;
import org.offlink.bridge.partition.PartitionServices;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.bridge.process.ToolFailedException;
import org.offlink.bridge.temp.TempFiles;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.bridge.tool.ResolvedTool;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.NamedFiles;
import org.offlink.runtime.WorkingDirectory;
import org.offlink.streamer.MalformedObjectException;

/**
 * Builds the amdgcn device image like the gcn mkoffload of the detected GCC (12: reference
 * §4.2–4.4; 13-15: delta §6, {@link GcnRelease}): accel compile to assembly ({@code -S}; 13+ with
 * the OpenMP requires file, {@link OmpRequiresFile}), {@link GcnAsmProcessor}, then assemble and
 * link to an HSACO with the accel driver, and check the HSACO's ELF header matches the requested
 * architecture. ILP32 yields an image with no bytes and no kernels (GCC leaves its C file empty
 * then). With {@code -g} host objects, their early debug info is linked into the HSACO as GCC does
 * ({@link GcnEarlyDebug}, reference §4.6).
 */
public final class GcnImageBuilder {
  private final AccelTools tools;
  private final ProcessRunner runner;
  private final LinkContext context;
  private final GccInstallation gcc;
  private final DevicePartitioning partitioning;
  private final boolean earlyLink;

  /** A builder working with {@code tools}. */
  public GcnImageBuilder(AccelTools tools) {
    this(tools, Optional.empty(), true);
  }

  /**
   * A builder that compiles the device code in partitions when {@code partitions} is present
   * ({@code OFFLINK_FLAGS=--device-jobs=N}, {@link GcnPartitionedBuild}), and with {@code
   * earlyLink} starts the link step while the device compile runs ({@link GcnPipelinedLink}; off
   * with {@code OFFLINK_FLAGS=--serial-gcn-link}).
   */
  public GcnImageBuilder(
      AccelTools tools, Optional<PartitionServices> partitions, boolean earlyLink) {
    this.tools = Objects.requireNonNull(tools, "tools");
    this.runner = tools.runner();
    this.context = tools.context();
    this.gcc = tools.gcc();
    this.partitioning = new DevicePartitioning(tools, partitions);
    this.earlyLink = earlyLink;
  }

  /** Builds the image, registering intermediates in the caller's {@code temps}. */
  public GcnImage build(OffloadOptions options, TempFiles temps) throws IOException {
    gcc.requireSupported(OffloadTarget.AMDGCN);
    GcnRelease release =
        GcnRelease.forMajor(gcc.major())
            .orElseThrow(() -> new UnsupportedGccException("no gcn mkoffload for " + gcc));
    List<String> args = release.rewriteLibraries(options.forwarded());
    GcnTargetSettings settings = GcnTargetSettings.fromArguments(release, args);
    int stackSize = release.layout().stackSizeConstructor() ? stackSize(args) : 0;
    if (options.abi() == OffloadAbi.ILP32) {
      return new GcnImage(
          new byte[0], List.of(), 0, release.layout(), 0, 0, stackSize, "", HsaXnack.UNCHECKED);
    }
    MkoffloadDumpNames names = options.names();
    ResolvedTool accel = tools.accelCompiler(OffloadTarget.AMDGCN);
    Map<String, String> env = AccelEnvironment.forAccelCompiler(context.environment());
    Path cwd = context.workingDirectory();
    String asm1 = temps.named(names.mkoffload(".1.s"), ".mkoffload.1.s");
    String asm2 = temps.named(names.mkoffload(".2.s"), ".mkoffload.2.s");
    String hsaco = temps.named(names.mkoffload(".hsaco"), ".mkoffload.hsaco");
    List<String> debugObjects = GcnEarlyDebug.copyAll(options, settings, temps, context);
    List<String> compile = compileArgv(accel.argv0(), options, release, args, asm1);
    List<String> link = linkArgv(accel.argv0(), options, settings, args, debugObjects, asm2, hsaco);
    List<String> assemble = assembleOptions(options, settings, args);
    Optional<GcnPartitionedBuild.Tables> parted =
        partitioning.attempt(
            OffloadTarget.AMDGCN,
            temps,
            names,
            options.verbose(),
            work ->
                new GcnPartitionedBuild(work, release).build(compile, assemble, link, asm2, env));
    GcnPartitionedBuild.Tables tables;
    long mask;
    if (parted.isPresent()) {
      tables = parted.get();
      mask = tables.requiresMask();
    } else {
      Map<String, String> compileEnv = env;
      OmpRequiresFile requires = null;
      if (release.layout().requiresMask()) {
        requires = OmpRequiresFile.create(names, temps);
        compileEnv = requires.exportTo(env, options.verbose(), context.err());
      }
      // -save-temps keeps the processed assembly as a file, and -v shows each step as it starts.
      Optional<GcnPipelinedLink> early =
          earlyLink && !options.saveTemps() && !options.verbose()
              ? GcnPipelinedLink.start(
                  runner,
                  temps,
                  asm -> linkArgv(accel.argv0(), options, settings, args, debugObjects, asm, hsaco),
                  env,
                  cwd)
              : Optional.empty();
      GcnAsmProcessor.Result processed;
      try {
        runner.runChecked(
            Command.of(compile, compileEnv, cwd)
                .withResponseFile(MkoffloadDumpNames.GCC_ARGS)
                .as(Command.Role.ACCEL_COMPILER));
        // GCC prints the uint32_t with %d into a uintptr_t initializer: bit 31 sign-extends.
        mask = requires == null ? 0 : requires.readMask();
        Path asm1Path = WorkingDirectory.resolve(cwd, asm1);
        processed = GcnAsmProcessor.process(release, readIntermediate(asm1Path, "asm"), asm1Path);
      } catch (IOException | RuntimeException | Error e) {
        early.ifPresent(GcnPipelinedLink::abandon);
        throw e;
      }
      Optional<CommandResult> linked =
          early.isPresent() ? early.get().finish(processed.assembly()) : Optional.empty();
      if (linked.isPresent()) {
        linked.get().showOn(context.err());
      } else {
        NamedFiles.write(
            context.scope(), WorkingDirectory.resolve(cwd, asm2), processed.assembly());
        link(Command.of(link, env, cwd).as(Command.Role.ACCEL_COMPILER), settings);
      }
      tables =
          new GcnPartitionedBuild.Tables(
              processed.kernels(),
              processed.variableCount(),
              processed.indirectFunctionCount(),
              (int) mask);
    }
    HsaXnack hsaXnack = hsaXnack(release, settings, mask);
    Path hsacoPath = WorkingDirectory.resolve(cwd, hsaco);
    byte[] image = readIntermediate(hsacoPath, "obj");
    checkHeader(HsacoHeader.read(image, hsacoPath), settings, hsacoPath);
    return new GcnImage(
        image,
        tables.kernels(),
        tables.variables(),
        release.layout(),
        mask,
        tables.indirectFunctions(),
        stackSize,
        hsaco,
        hsaXnack);
  }

  /**
   * 16's {@code HSA_XNACK} check, with its warning when XNACK is off but required (process_asm).
   */
  private HsaXnack hsaXnack(GcnRelease release, GcnTargetSettings settings, long mask) {
    if (!release.layout().setupFunction()) {
      return HsaXnack.UNCHECKED;
    }
    if (settings.xnackConflicts(mask)) {
      context
          .err()
          .println(
              gcc.release().mkoffloadName(OffloadTarget.AMDGCN)
                  + ": warning: conflicting settings; XNACK is forced off but Unified Shared"
                  + " Memory is required");
    }
    return settings.hsaXnack(mask);
  }

  /**
   * What the link step passes the assembler, for a partition's own assembly: the XNACK and SRAM-ECC
   * options, {@code -v}, and every {@code -march*} argument.
   */
  static List<String> assembleOptions(
      OffloadOptions options, GcnTargetSettings settings, List<String> args) {
    List<String> out = new ArrayList<>(settings.linkOptions());
    if (options.verbose()) {
      out.add("-v");
    }
    for (String a : args) {
      if (a.startsWith("-march")) {
        out.add(a);
      }
    }
    return out;
  }

  /** 13+'s {@code -mstack-size=N}: the last one, read like {@code atoi}. */
  static int stackSize(List<String> args) {
    int size = 0;
    for (String a : args) {
      if (a.startsWith("-mstack-size=")) {
        size = atoi(a.substring("-mstack-size=".length()));
      }
    }
    return size;
  }

  /** C's {@code atoi}: optional blanks and sign, then digits; 0 when there are none. */
  private static int atoi(String text) {
    int i = 0;
    while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
      i++;
    }
    boolean negative = i < text.length() && text.charAt(i) == '-';
    if (i < text.length() && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
      i++;
    }
    long value = 0;
    while (i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
      value = Math.min(value * 10 + (text.charAt(i++) - '0'), Integer.MAX_VALUE);
    }
    return (int) (negative ? -value : value);
  }

  /** The GCC 12 compile-step argv (reference §4.2). */
  static List<String> compileArgv(String driver, OffloadOptions options, String asm1) {
    return compileArgv(driver, options, GcnRelease.GCC12, options.forwarded(), asm1);
  }

  /**
   * The compile-step argv (reference §4.2, delta §6.3): {@code release}'s extra options after
   * {@code -mgomp}, then {@code args} (the forwarded arguments after the library rewrites).
   */
  static List<String> compileArgv(
      String driver, OffloadOptions options, GcnRelease release, List<String> args, String asm1) {
    List<String> argv = new ArrayList<>(List.of(driver, "-S"));
    if (options.saveTemps()) {
      argv.add("-save-temps");
    }
    if (options.verbose()) {
      argv.add("-v");
    }
    argv.add(options.abi().hostFlag());
    argv.add("-xlto");
    if (options.openmp()) {
      argv.add("-mgomp");
    }
    argv.addAll(release.accelCompileExtra());
    argv.addAll(args);
    argv.addAll(options.names().accelDumpOptions(asm1));
    return argv;
  }

  /**
   * The link-step argv (reference §4.4, delta §6.5): the early debug objects before the assembly,
   * the feature options of {@code settings}, {@code -v}, from GCC 13 on {@code -save-temps}, no
   * dump options (GCC appends those to the wrong obstack), every {@code -l*}, {@code -Wl*} and
   * {@code -march*} argument of {@code args} forwarded.
   */
  static List<String> linkArgv(
      String driver,
      OffloadOptions options,
      GcnTargetSettings settings,
      List<String> args,
      List<String> debugObjects,
      String asm2,
      String hsaco) {
    List<String> argv = new ArrayList<>(List.of(driver));
    argv.addAll(debugObjects);
    argv.add(asm2);
    argv.add("-lgomp");
    argv.addAll(settings.linkOptions());
    if (options.verbose()) {
      argv.add("-v");
    }
    if (options.saveTemps() && settings.release().linkSaveTemps()) {
      argv.add("-save-temps");
    }
    for (String a : args) {
      if (a.startsWith("-l") || a.startsWith("-Wl") || a.startsWith("-march")) {
        argv.add(a);
      }
    }
    argv.add("-o");
    argv.add(hsaco);
    return argv;
  }

  private void link(Command command, GcnTargetSettings settings) throws IOException {
    CommandResult result = runner.run(command.withResponseFile(MkoffloadDumpNames.LD_ARGS));
    if (result.succeeded()) {
      return;
    }
    if (result.stderr().contains("incompatible mach")) {
      throw new UnsupportedGccException(brokenMultilibMessage(settings));
    }
    throw new ToolFailedException(result);
  }

  /** Why Debian 12's gfx908 link fails: the multilib lacks libgomp.a, fiji's is picked. */
  private String brokenMultilibMessage(GcnTargetSettings settings) {
    String arch = settings.arch().name();
    Path dir = gcc.debianAccelLibraryDirectory(OffloadTarget.AMDGCN).resolve(arch);
    String missing =
        Files.isRegularFile(dir.resolve("libgomp.a"))
            ? ""
            : " (" + dir + " has no libgomp.a, so the linker took the default fiji one)";
    return "cannot link the amdgcn image for -march="
        + arch
        + ": the accel libraries of this GCC are built for a different GPU"
        + missing
        + "; the installed "
        + OffloadTarget.AMDGCN.debianPackage(gcc.major())
        + " does not support "
        + arch
        + " offloading"
        + (gcc.major() == 12 ? ", use -foffload-options=-march=gfx906, gfx900 or fiji" : "");
  }

  private static void checkHeader(HsacoHeader h, GcnTargetSettings settings, Path file)
      throws MalformedObjectException {
    if (h.machine() != HsacoHeader.EM_AMDGPU || h.mach() != settings.arch().elfMach()) {
      throw new MalformedObjectException(
          file,
          0x12,
          String.format(
              "expected an AMDGPU (0xe0) HSACO for %s (mach 0x%x), found machine 0x%x mach 0x%x",
              settings.arch().name(), settings.arch().elfMach(), h.machine(), h.mach()));
    }
  }

  /** An intermediate file a step wrote ({@code kind}: asm, obj), with gcn mkoffload's error. */
  static byte[] readIntermediate(Path file, String kind) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException("cannot open intermediate gcn " + kind + " file " + file);
    }
    return Files.readAllBytes(file);
  }
}
