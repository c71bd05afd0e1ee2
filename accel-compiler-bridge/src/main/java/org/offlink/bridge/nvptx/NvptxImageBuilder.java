package org.offlink.bridge.nvptx;

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
import org.offlink.bridge.gcc.GccRelease;
import org.offlink.bridge.gcc.MkoffloadDumpNames;
import org.offlink.bridge.gcc.OffloadAbi;
import org.offlink.bridge.gcc.OffloadOptions;
import org.offlink.bridge.gcc.OmpRequiresFile;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.bridge.partition.DevicePartitioning;
import org.offlink.bridge.partition.NvptxPartitionedBuild;
import org.offlink.bridge.partition.PartitionServices;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.bridge.process.ToolFailedException;
import org.offlink.bridge.temp.TempFiles;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.bridge.tool.ResolvedTool;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.WorkingDirectory;

/**
 * Builds the nvptx device image like GCC 12's nvptx mkoffload (reference §3.3–3.4): runs the accel
 * driver on the offload IR with {@code -xlto}, reads the linked PTX and splits it with {@link
 * PtxImageParser}. ILP32 yields {@link NvptxImage#empty()} without running anything. The
 * environment restoration ({@link AccelEnvironment#restored}) belongs to the caller's host compile.
 */
public final class NvptxImageBuilder {
  private final AccelTools tools;
  private final ProcessRunner runner;
  private final LinkContext context;
  private final GccInstallation gcc;
  private final DevicePartitioning partitioning;
  private final PtxLinking ptxLinking;

  /** A builder working with {@code tools}. */
  public NvptxImageBuilder(AccelTools tools) {
    this(tools, Optional.empty(), PtxLinking.NONE);
  }

  /**
   * A builder that compiles the device code in partitions when {@code partitions} is present
   * ({@code OFFLINK_FLAGS=--device-jobs=N}, {@link NvptxPartitionedBuild}).
   */
  public NvptxImageBuilder(AccelTools tools, Optional<PartitionServices> partitions) {
    this(tools, partitions, PtxLinking.NONE);
  }

  /**
   * A builder that also links the PTX in-process where {@link NvptxLinkerStandIn} can, as {@code
   * ptxLinking} allows.
   */
  public NvptxImageBuilder(
      AccelTools tools, Optional<PartitionServices> partitions, PtxLinking ptxLinking) {
    this.ptxLinking = Objects.requireNonNull(ptxLinking, "ptxLinking");
    this.tools = Objects.requireNonNull(tools, "tools");
    this.runner = tools.runner();
    this.context = tools.context();
    this.gcc = tools.gcc();
    this.partitioning = new DevicePartitioning(tools, partitions);
  }

  /** Builds the image, registering intermediates in the caller's {@code temps}. */
  public NvptxImage build(OffloadOptions options, TempFiles temps) throws IOException {
    gcc.requireSupported(OffloadTarget.NVPTX);
    if (options.abi() == OffloadAbi.ILP32) {
      return NvptxImage.empty();
    }
    GccRelease release = gcc.release();
    MkoffloadDumpNames names = options.names();
    ResolvedTool accel = tools.accelCompiler(OffloadTarget.NVPTX);
    Map<String, String> env = AccelEnvironment.forAccelCompiler(context.environment());
    List<String> forwarded = rewriteLibraries(options.forwarded(), release);
    String arch = PtxasCheck.targetArch(forwarded, release.nvptx().defaultArch());
    Optional<String> warning =
        PtxasCheck.check(env, context.workingDirectory(), arch, gcc.major(), runner, temps);
    String program = release.mkoffloadName(OffloadTarget.NVPTX);
    warning.ifPresent(w -> context.err().println(program + ": warning: " + w));
    String ptxFile = temps.named(names.mkoffload(), ".mkoffload");
    List<String> argv =
        accelArgv(accel.argv0(), options, forwarded, release, warning.isPresent(), ptxFile);
    startScanLoopWarmUp();
    boolean requiresFile = release.layout().requiresMask();
    Optional<Integer> partitioned =
        partitioning.attempt(
            OffloadTarget.NVPTX,
            temps,
            names,
            options.verbose(),
            work -> new NvptxPartitionedBuild(work, requiresFile).build(argv, env));
    Optional<OmpRequiresFile> requires =
        release.layout().requiresMask() && partitioned.isEmpty()
            ? Optional.of(OmpRequiresFile.create(names, temps))
            : Optional.empty();
    Map<String, String> accelEnv =
        requires.isPresent() ? requires.get().exportTo(env, options.verbose(), context.err()) : env;
    if (partitioned.isEmpty()) {
      compile(argv, accelEnv, options.verbose(), temps);
    }
    Path ptx = WorkingDirectory.resolve(context.workingDirectory(), ptxFile);
    if (!Files.isRegularFile(ptx)) {
      throw new IOException("cannot open intermediate ptx file " + ptxFile);
    }
    if (!release.layout().requiresMask()) {
      return PtxImageParser.parseReusing(Files.readAllBytes(ptx), ptx);
    }
    int mask = partitioned.isPresent() ? partitioned.get() : requires.get().readMask();
    NvptxImage image = withTables(release, Files.readAllBytes(ptx), ptx, mask);
    if (image.disabled()) {
      context.err().println(program + ": warning: " + PtxFunctionTables.SM30_WARNING);
    }
    return image;
  }

  /**
   * The whole-program accel compile: with the PTX linked in-process where {@link
   * NvptxLinkerStandIn} can, else (or when that link cannot be sure of its result) as GCC runs it.
   * The stand-in run's messages (lto1's warnings) are shown only when its result is kept, so that a
   * rerun does not show them twice.
   */
  private void compile(List<String> argv, Map<String, String> env, boolean verbose, TempFiles temps)
      throws IOException {
    Optional<NvptxLinkerStandIn> standIn =
        verbose
            ? Optional.empty()
            : NvptxLinkerStandIn.prepare(
                ptxLinking.standIn(),
                ptxLinking.archives(),
                gcc.debianAccelToolDirectory(OffloadTarget.NVPTX),
                argv,
                env,
                temps);
    if (standIn.isPresent()) {
      CommandResult held =
          runner.run(
              accelCommand(argv, standIn.get().environment(env))
                  .as(Command.Role.ACCEL_COMPILER_HELD));
      if (!held.succeeded() && !standIn.get().ran()) {
        held.showOn(context.err()); // lto1 or the assembler failed: as GCC's own run would have
        throw new ToolFailedException(held);
      }
      NvptxLinkerStandIn.Linked linked =
          held.succeeded()
              ? standIn.get().finish(context.workingDirectory(), env, runner, context.err())
              : NvptxLinkerStandIn.Linked.FAILED;
      if (linked != NvptxLinkerStandIn.Linked.FAILED) {
        held.showOn(context.err());
        timing(
            linked == NvptxLinkerStandIn.Linked.IN_PROCESS
                ? "nvptx: PTX linked in-process"
                : linked == NvptxLinkerStandIn.Linked.NVPTX_TOOLS
                    ? "nvptx: PTX linked by nvptx-tools' linker, on the stand-in's record"
                    : "nvptx: PTX linked by the accel driver's own linker");
        return;
      }
      // real-ld could not write its record, or the in-process link cannot be sure: GCC's run.
    }
    runner.runChecked(accelCommand(argv, env));
    timing("nvptx: PTX linked by the accel driver's own linker");
  }

  /** With {@code OFFLINK_TIMING}, a line on how the image was built (beside the phase times). */
  private void timing(String what) {
    if (context.env("OFFLINK_TIMING").isPresent()) {
      context.err().println("mkoffload: timing: " + what);
    }
  }

  private Command accelCommand(List<String> argv, Map<String, String> env) {
    return Command.of(argv, env, context.workingDirectory())
        .withResponseFile(MkoffloadDumpNames.GCC_ARGS)
        .as(Command.Role.ACCEL_COMPILER);
  }

  /**
   * GCC 13+: parses the PTX (with {@code IND_FUNC_MAP} from 14), adds the reverse-offload and
   * indirect-function table chunks and the registration layout, or marks the image dropped (sm_30
   * with reverse offload: the caller prints GCC's warning).
   */
  static NvptxImage withTables(GccRelease release, byte[] bytes, Path ptx, int mask)
      throws IOException {
    GccRelease.Layout l = release.layout();
    PtxImageParser.Parsed parsed = PtxImageParser.parseVersioned(bytes, ptx, l.indirectFunctions());
    NvptxImage base = parsed.image();
    PtxFunctionTables.Result tables =
        PtxFunctionTables.build(
            base.ptxChunks(),
            base.functions(),
            parsed.indirect(),
            parsed.functionChunks(),
            mask,
            ptx);
    NvptxImage image =
        new NvptxImage(
            base.ptxChunks(),
            base.variables(),
            base.functions(),
            parsed.indirect(),
            tables.tables(),
            new NvptxImage.Layout(
                release.nvptx().version(), l.requiresMask(), l.indirectFunctions()),
            mask,
            false);
    return tables.disabled() ? image.asDisabled() : image;
  }

  /**
   * GCC 14+ turns {@code -l_GCC_<lib>} (the driver's forwarding of {@code -lgfortran}, {@code -lm},
   * 15: {@code -lstdc++}) into {@code -l<lib>} in place (delta §5.1); other arguments are kept.
   */
  static List<String> rewriteLibraries(List<String> args, GccRelease release) {
    List<String> rewrites = release.nvptx().libraryRewrites();
    if (rewrites.isEmpty()) {
      return args;
    }
    List<String> out = new ArrayList<>(args.size());
    for (String a : args) {
      boolean known = a.startsWith("-l_GCC_") && rewrites.contains(a.substring("-l_GCC_".length()));
      out.add(known ? "-l" + a.substring("-l_GCC_".length()) : a);
    }
    return out;
  }

  /**
   * Has the PTX scan loop compiled while the accel compiler runs ({@link
   * PtxImageParser#exerciseScanLoop}): a daemon thread doing a few milliseconds of work on a CPU
   * the accel compiler leaves idle (it spends most of its time starting processes and waiting for
   * files), so that parsing its output does not start in the interpreter.
   */
  private static void startScanLoopWarmUp() {
    Thread t = new Thread(PtxImageParser::exerciseScanLoop, "offlink-ptx-warm-up");
    t.setDaemon(true);
    t.start();
  }

  /** The accel driver argv of GCC 12's nvptx mkoffload (reference §3.3 item 4). */
  static List<String> accelArgv(
      String driver, OffloadOptions options, boolean noVerify, String ptxFile) {
    return accelArgv(driver, options, options.forwarded(), GccRelease.of(12), noVerify, ptxFile);
  }

  /**
   * The accel driver argv of nvptx mkoffload (reference §3.3 item 4, delta §5.2): {@code forwarded}
   * are the arguments after {@code -l_GCC_} rewriting, and the release adds its flags after {@code
   * -mgomp} (15: {@code -mfake-exceptions}).
   */
  static List<String> accelArgv(
      String driver,
      OffloadOptions options,
      List<String> forwarded,
      GccRelease release,
      boolean noVerify,
      String ptxFile) {
    List<String> argv = new ArrayList<>();
    argv.add(driver);
    if (options.saveTemps()) {
      argv.add("-save-temps");
    }
    if (options.verbose()) {
      argv.add("-v");
    }
    argv.add("-xlto");
    argv.add(options.abi().hostFlag());
    if (options.openmp()) {
      argv.add("-mgomp");
    }
    argv.addAll(release.nvptx().extraAccelFlags());
    argv.addAll(forwarded);
    if (noVerify) {
      argv.add(PtxasCheck.NO_VERIFY);
    }
    argv.addAll(options.names().accelDumpOptions(ptxFile));
    return argv;
  }
}
