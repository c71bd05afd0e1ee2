package org.offlink.bridge.mkoffload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.offlink.bridge.OfflinkFlags;
import org.offlink.bridge.gcc.AccelEnvironment;
import org.offlink.bridge.gcc.AccelTools;
import org.offlink.bridge.gcc.GccInstallation;
import org.offlink.bridge.gcc.GccRelease;
import org.offlink.bridge.gcc.InputArguments;
import org.offlink.bridge.gcc.MkoffloadDumpNames;
import org.offlink.bridge.gcc.OffloadAbi;
import org.offlink.bridge.gcc.OffloadOptionException;
import org.offlink.bridge.gcc.OffloadOptions;
import org.offlink.bridge.gcc.UnsupportedGccException;
import org.offlink.bridge.gcn.GcnImageBuilder;
import org.offlink.bridge.image.DeviceImage;
import org.offlink.bridge.image.GcnImage;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.bridge.nvptx.NvptxImageBuilder;
import org.offlink.bridge.nvptx.PtxLinking;
import org.offlink.bridge.partition.PartitionServices;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.bridge.process.RunnerOptions;
import org.offlink.bridge.process.SystemProcessRunner;
import org.offlink.bridge.process.ToolFailedException;
import org.offlink.bridge.temp.TempFiles;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.bridge.tool.ToolNotFoundException;
import org.offlink.bridge.wrapper.WrapperMode;
import org.offlink.bridge.wrapper.WrapperObjects;
import org.offlink.runtime.AtomicFiles;
import org.offlink.runtime.ErrorText;
import org.offlink.runtime.IoReasons;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.LinkScope;
import org.offlink.runtime.NamedFiles;
import org.offlink.runtime.WorkingDirectory;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.OfflinkVersion;
import org.offlink.streamer.ar.MemberSpec;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;

/**
 * GCC 12's mkoffload as a library, so that lto-wrapper can run it in-process: builds the device
 * image for one target and writes the host wrapper object named by {@code -o}. Errors are printed
 * as GCC prints them ({@code mkoffload: fatal error: ...} then {@code compilation terminated.}) and
 * give exit status 1; {@link #run} never throws.
 */
public final class Mkoffload {
  /** What {@code --version} prints: the GCC versions of every target offlink builds. */
  public static final String VERSION =
      "offlink mkoffload "
          + OfflinkVersion.number()
          + " ("
          + GccRelease.compatibility(Optional.empty())
          + " compatible)";

  /** The first line of {@code -v} output: the GCC versions offlink builds {@code target} for. */
  public static String version(OffloadTarget target) {
    return "offlink mkoffload "
        + OfflinkVersion.number()
        + " ("
        + GccRelease.compatibility(Optional.of(target))
        + " compatible) for "
        + target.triplet();
  }

  private static final String PROGRAM = "mkoffload";

  /** The diagnostics' program name: GCC 13+'s per-target name once the GCC is known. */
  private volatile String program = PROGRAM;

  private final LinkContext context;
  private final MkoffloadListener listener;
  private final Optional<PartitionServices> partitions;

  /** An mkoffload running in {@code context}. */
  public Mkoffload(LinkContext context) {
    this(context, MkoffloadListener.NONE);
  }

  /**
   * An mkoffload running in {@code context} that tells {@code listener} what it does; with {@code
   * OFFLINK_FLAGS=--device-jobs=N} it compiles the device code in partitions on N threads of its
   * own, without a partition cache.
   */
  public Mkoffload(LinkContext context, MkoffloadListener listener) {
    this(context, listener, PartitionServices.standalone(context.environment()));
  }

  /**
   * An mkoffload that compiles the device code in partitions on {@code partitions} when present
   * (lto-wrapper's job slots and cache), in one whole-program accel compile otherwise.
   */
  public Mkoffload(
      LinkContext context, MkoffloadListener listener, Optional<PartitionServices> partitions) {
    this.context = Objects.requireNonNull(context, "context");
    this.listener = Objects.requireNonNull(listener, "listener");
    this.partitions = Objects.requireNonNull(partitions, "partitions");
  }

  /** Runs one invocation: the image it built, or why it failed (printed as GCC prints it, too). */
  public MkoffloadResult run(MkoffloadRequest request) {
    try {
      return MkoffloadResult.built(build(request));
    } catch (ToolFailedException e) {
      return failed(MkoffloadFailure.Kind.TOOL_FAILED, e.getMessage(), e.output());
    } catch (OffloadOptionException e) {
      return failed(MkoffloadFailure.Kind.OPTIONS, e.getMessage(), "");
    } catch (UnsupportedGccException e) {
      return failed(MkoffloadFailure.Kind.UNSUPPORTED_GCC, e.getMessage(), "");
    } catch (ToolNotFoundException e) {
      return failed(MkoffloadFailure.Kind.TOOL_NOT_FOUND, e.getMessage(), "");
    } catch (MalformedObjectException e) {
      return failed(MkoffloadFailure.Kind.MALFORMED_INPUT, e.getMessage(), "");
    } catch (IOException e) {
      return failed(MkoffloadFailure.Kind.IO, ErrorText.of(e), "");
    } catch (RuntimeException e) {
      return failed(MkoffloadFailure.Kind.INTERNAL, ErrorText.of(e), "");
    }
  }

  private MkoffloadResult failed(MkoffloadFailure.Kind kind, String message, String toolOutput) {
    MkoffloadFailure failure = new MkoffloadFailure(kind, program, message, toolOutput);
    fatal(context, failure.program(), failure.message());
    return MkoffloadResult.failed(failure);
  }

  /**
   * Prints GCC's two lines for a fatal error and returns the exit status 1; for a failure found
   * before the run (a response file that cannot be expanded).
   */
  public static int fatal(LinkContext context, String message) {
    return fatal(context, PROGRAM, message);
  }

  private static int fatal(LinkContext context, String program, String message) {
    context.err().println(program + ": fatal error: " + message);
    context.err().println("compilation terminated.");
    context.err().flush();
    return 1;
  }

  private DeviceImage build(MkoffloadRequest request) throws IOException {
    if (context.env("COLLECT_GCC").isEmpty()) {
      throw new OffloadOptionException("COLLECT_GCC must be set.");
    }
    OffloadOptions options = request.options();
    String output =
        options
            .output()
            .orElseThrow(() -> new OffloadOptionException("missing output file ('-o')"));
    if (options.verbose()) {
      // Like collect2's "collect2 version ..." under -v: says which mkoffload ran, also when it
      // runs in place of GCC's own (scripts/install.sh --replace-gcc) or inside lto-wrapper.
      context.err().println(version(request.target()));
    }
    PhaseClock clock =
        new PhaseClock(
            context.env("OFFLINK_TIMING").isPresent(),
            context.err(),
            context.scope().serverLinkStart());
    clock.mark("start-up and arguments");
    Path out = WorkingDirectory.resolve(context.workingDirectory(), output);
    requireWritableDirectory(out);
    if (!request.inputsChecked()) {
      requireObjects(options);
    }
    clock.mark("input checks");
    RunnerOptions runnerOptions =
        new RunnerOptions(
            context, options.verbose(), options.saveTemps(), Optional.of(options.dumppfx()));
    ProcessRunner runner =
        new ListeningRunner(
            new ForwardingRunner(new SystemProcessRunner(runnerOptions, true), context.err()),
            listener,
            request.target());
    GccInstallation gcc = installation(request, runner);
    program = gcc.release().mkoffloadName(request.target());
    gcc.requireSupported(request.target());
    clock.mark("gcc facts");
    try (TempFiles temps = new TempFiles(context, options.saveTemps(), options.verbose())) {
      WrapperSource source =
          buildImage(request.target(), options, runner, gcc, temps, request.ptxLinking());
      clock.mark("image");
      // GCC restores the accel compiler's hidden variables just before the host compile.
      Map<String, String> hostEnv =
          AccelEnvironment.restored(context.environment(), options.verbose(), context.err());
      WrapperMode mode = source.needsC() ? WrapperMode.C : request.mode();
      if (mode == WrapperMode.ELF) {
        if (options.saveTemps()) {
          // Keep what stock keeps, <dumppfx>.c, for diffing against a stock build.
          writeCFile(temps, options, source);
        }
        byte[] object = source.elf();
        listener.wrapperReady(request.target(), object, source.image().counts());
        writeAtomically(context.scope(), out, object);
      } else {
        String cFile = writeCFile(temps, options, source);
        runner.runChecked(
            hostCompile(options, gcc.release(), request.target(), hostEnv, cFile, output));
      }
      clock.mark("wrapper");
      return source.image();
    }
  }

  /** Fails before any compiler runs when the output cannot be written (no work is wasted). */
  private static void requireWritableDirectory(Path out) throws IOException {
    Path dir = out.getParent() != null ? out.getParent() : Path.of(".");
    String reason =
        !Files.exists(dir)
            ? "No such file or directory"
            : !Files.isDirectory(dir)
                ? "Not a directory"
                : !Files.isWritable(dir) ? "Permission denied" : null;
    if (reason != null) {
      throw new IOException("cannot write '" + out + "': " + dir + ": " + reason);
    }
  }

  /**
   * Checks that every input naming an existing file (or archive member, {@code lib.a@0xOFF}) is an
   * ELF object, so a corrupt input gets an error naming it rather than the accel compiler's
   * failure. Arguments that are not files are left to the accel compiler, as in GCC.
   */
  private void requireObjects(OffloadOptions options) throws IOException {
    List<String> args = options.forwarded();
    for (int i : InputArguments.indices(args)) {
      String arg = args.get(i);
      MemberSpec spec = MemberSpec.parse(arg);
      Path file = WorkingDirectory.resolve(context.workingDirectory(), spec.file());
      if (!Files.isRegularFile(file)) {
        continue;
      }
      long length = Files.size(file) - spec.offset();
      try (ElfFile elf = ElfReader.read(file, spec.offset(), length)) {
        if (elf.sectionsWithPrefix(".gnu.offload_lto_").isEmpty()) {
          throw new MalformedObjectException(
              file,
              spec.offset(),
              "expected offload IR (.gnu.offload_lto_* sections), found none: was it compiled"
                  + " with -fopenmp or -fopenacc and -foffload?");
        }
      }
    }
  }

  private WrapperSource buildImage(
      OffloadTarget target,
      OffloadOptions options,
      ProcessRunner runner,
      GccInstallation gcc,
      TempFiles temps,
      PtxLinking ptxLinking)
      throws IOException {
    if (target == OffloadTarget.NVPTX) {
      PtxLinking linker =
          OfflinkFlags.fromEnvironment(context.environment()).inProcessNvptxLinker()
              ? ptxLinking
              : PtxLinking.NONE;
      NvptxImage image =
          new NvptxImageBuilder(new AccelTools(runner, context, gcc), partitions, linker)
              .build(options, temps);
      // ILP32, or GCC 13+ dropping a reverse-offload image for sm_30: an empty C file, compiled.
      boolean empty = options.abi() == OffloadAbi.ILP32 || image.disabled();
      return new WrapperSource(
          image,
          () -> WrapperObjects.nvptxElf(image),
          () -> empty ? "" : WrapperObjects.nvptxC(image),
          empty);
    }
    GcnImage image =
        new GcnImageBuilder(
                new AccelTools(runner, context, gcc),
                partitions,
                OfflinkFlags.fromEnvironment(context.environment()).earlyGcnLink())
            .build(options, temps);
    boolean empty = options.abi() == OffloadAbi.ILP32;
    // GCC 13+'s -mstack-size constructor and 16's HSA_XNACK check (getenv/setenv) are not
    // hand-assembled: such a wrapper is compiled from GCC's C form.
    return new WrapperSource(
        image,
        () -> WrapperObjects.gcnElf(image),
        () -> empty ? "" : WrapperObjects.gcnC(image),
        empty || image.setsEnvironment());
  }

  private String writeCFile(TempFiles temps, OffloadOptions options, WrapperSource source)
      throws IOException {
    String cFile = temps.named(options.names().cFile(), ".c");
    Path path = WorkingDirectory.resolve(context.workingDirectory(), cFile);
    try {
      NamedFiles.write(context.scope(), path, source.c().getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IOException("cannot open '" + cFile + "'", e);
    }
    return cFile;
  }

  /** GCC 12's host compile of the generated C file (reference §3.5, §4.7). */
  static Command hostCompileCommand(
      String collectGcc,
      OffloadOptions options,
      Map<String, String> env,
      Path cwd,
      String cFile,
      String output) {
    return hostCompileCommand(
        collectGcc, options, options.abi().hostFlag(), env, cwd, cFile, output);
  }

  /**
   * The host compile of the generated C file; {@code abiFlag} takes the place of GCC 12's {@code
   * -m64}/{@code -m32} (GCC 15: the {@code -foffload-abi-host-opts=} value, delta §5.5).
   */
  static Command hostCompileCommand(
      String collectGcc,
      OffloadOptions options,
      String abiFlag,
      Map<String, String> env,
      Path cwd,
      String cFile,
      String output) {
    List<String> argv = new ArrayList<>();
    argv.add(collectGcc);
    for (String a : options.forwarded()) {
      if (a.equals("-fPIC") || a.equals("-fpic")) {
        argv.add(a);
      }
    }
    if (options.saveTemps()) {
      argv.add("-save-temps");
    }
    if (options.verbose()) {
      argv.add("-v");
    }
    argv.addAll(
        List.of(
            "-dumpdir",
            "",
            "-dumpbase",
            options.names().cFile(),
            "-dumpbase-ext",
            ".c",
            abiFlag,
            cFile,
            "-c",
            "-o",
            output));
    return Command.of(argv, env, cwd)
        .withResponseFile(MkoffloadDumpNames.GCCNATIVE_ARGS)
        .as(Command.Role.HOST_COMPILER);
  }

  private Command hostCompile(
      OffloadOptions options,
      GccRelease release,
      OffloadTarget target,
      Map<String, String> env,
      String cFile,
      String output)
      throws OffloadOptionException {
    String collectGcc = context.environment().get("COLLECT_GCC");
    String abiFlag = options.abi().hostFlag();
    if (release.requiresHostOpts(target)) {
      // GCC 15 raises this only at the host compile, after the accel compiler ran.
      abiFlag =
          options
              .abiHostOpts()
              .orElseThrow(
                  () -> new OffloadOptionException("'-foffload-abi-host-opts' not specified."));
    }
    return hostCompileCommand(
        collectGcc, options, abiFlag, env, context.workingDirectory(), cFile, output);
  }

  /**
   * The GCC installation: the caller's, else without running anything where possible ({@link
   * GccInstallation#fromEnvironment}); only then by asking {@code COLLECT_GCC
   * -dumpmachine/-dumpfullversion}.
   */
  private GccInstallation installation(MkoffloadRequest request, ProcessRunner runner)
      throws IOException {
    if (request.installation().isPresent()) {
      return request.installation().get();
    }
    Optional<GccInstallation> found =
        GccInstallation.fromEnvironment(context.environment(), context.workingDirectory());
    if (found.isPresent()) {
      return found.get();
    }
    return GccInstallation.detect(context.environment(), context.workingDirectory(), runner);
  }

  /** Writes {@code bytes} to a temp name beside {@code out}, then renames it into place. */
  static void writeAtomically(LinkScope scope, Path out, byte[] bytes) throws IOException {
    try {
      AtomicFiles.write(scope, out, bytes);
    } catch (FileSystemException e) {
      // No such folder, permission denied, no space left on device: the file and the reason.
      throw new IOException("cannot write '" + out + "': " + IoReasons.reason(e), e);
    }
  }

  /**
   * The two renderings of one image; each made only when needed. {@code needsC}: only the C form
   * has everything the image needs (an empty file for ILP32 or a dropped image, whose host compile
   * registers nothing; GCC 13+'s -mstack-size constructor).
   */
  private record WrapperSource(
      DeviceImage image, Render<byte[]> elfRender, Render<String> cRender, boolean needsC) {
    byte[] elf() throws IOException {
      return elfRender.get();
    }

    String c() throws IOException {
      return cRender.get();
    }
  }

  @FunctionalInterface
  private interface Render<T> {
    T get() throws IOException;
  }
}
