package org.offlink.bridge.nvptx;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.offlink.bridge.ToolContext;
import org.offlink.bridge.gcc.AccelEnvironment;
import org.offlink.bridge.gcc.DumpNames;
import org.offlink.bridge.gcc.GccInstallation;
import org.offlink.bridge.gcc.OffloadAbi;
import org.offlink.bridge.gcc.OffloadOptions;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.bridge.temp.TempFiles;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.bridge.tool.ResolvedTool;
import org.offlink.bridge.tool.ToolLocator;
import org.offlink.streamer.io.TempDirectory;
import org.offlink.streamer.io.WorkingDirectory;

/**
 * Builds the nvptx device image like GCC 12's nvptx mkoffload (reference §3.3–3.4): runs the accel
 * driver on the offload IR with {@code -xlto}, reads the linked PTX and splits it with {@link
 * PtxImageParser}. ILP32 yields {@link NvptxImage#empty()} without running anything. The
 * environment restoration ({@link AccelEnvironment#restored}) belongs to the caller's host compile.
 */
public final class NvptxImageBuilder {
  private final ProcessRunner runner;
  private final ToolContext context;
  private final GccInstallation gcc;

  /** A builder running tools through {@code runner} in {@code context}. */
  public NvptxImageBuilder(ProcessRunner runner, ToolContext context, GccInstallation gcc) {
    this.runner = Objects.requireNonNull(runner, "runner");
    this.context = Objects.requireNonNull(context, "context");
    this.gcc = Objects.requireNonNull(gcc, "gcc");
  }

  /** Builds the image with its own temp-file scope (closed before returning). */
  public NvptxImage build(OffloadOptions options) throws IOException {
    try (TempFiles temps = newTempFiles(context, options)) {
      return build(options, temps);
    }
  }

  /** Builds the image, registering intermediates in the caller's {@code temps}. */
  public NvptxImage build(OffloadOptions options, TempFiles temps) throws IOException {
    gcc.requireSupported(OffloadTarget.NVPTX);
    if (options.abi() == OffloadAbi.ILP32) {
      return NvptxImage.empty();
    }
    DumpNames names = options.names();
    ResolvedTool accel = locateAccelCompiler();
    Map<String, String> env = AccelEnvironment.forAccelCompiler(context.environment());
    String arch = PtxasCheck.targetArch(options.forwarded());
    Optional<String> warning =
        PtxasCheck.check(env, context.workingDirectory(), arch, runner, temps);
    warning.ifPresent(w -> context.err().println("mkoffload: warning: " + w));
    String ptxFile = temps.named(names.mkoffload(), ".mkoffload");
    List<String> argv = accelArgv(accel.argv0(), options, warning.isPresent(), ptxFile);
    startScanLoopWarmUp();
    runner.runChecked(
        Command.of(argv, env, context.workingDirectory()).withResponseFile(DumpNames.GCC_ARGS));
    Path ptx = WorkingDirectory.resolve(context.workingDirectory(), ptxFile);
    if (!Files.isRegularFile(ptx)) {
      throw new IOException("cannot open intermediate ptx file " + ptxFile);
    }
    return PtxImageParser.parseReusing(Files.readAllBytes(ptx), ptx);
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
    argv.addAll(options.forwarded());
    if (noVerify) {
      argv.add(PtxasCheck.NO_VERIFY);
    }
    argv.addAll(
        List.of(
            "-dumpdir",
            "",
            "-dumpbase",
            options.names().mkoffload(),
            "-dumpbase-ext",
            "",
            "-o",
            ptxFile));
    return argv;
  }

  private ResolvedTool locateAccelCompiler() throws IOException {
    ToolLocator locator = new ToolLocator(context.environment(), context.workingDirectory());
    return locator.findAccelCompiler(
        gcc.accelDriverName(OffloadTarget.NVPTX), OffloadTarget.NVPTX.debianPackage(gcc.major()));
  }

  static TempFiles newTempFiles(ToolContext context, OffloadOptions options) {
    return new TempFiles(
        TempDirectory.choose(context.environment(), context.workingDirectory()),
        context.workingDirectory(),
        options.saveTemps(),
        options.verbose(),
        context.err());
  }
}
