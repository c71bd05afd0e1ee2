package org.offlink.bridge.process;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.offlink.bridge.tool.ExecutableSearch;
import org.offlink.runtime.ChildEnding;
import org.offlink.runtime.ErrorText;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.LinkScope;
import org.offlink.runtime.NativeCharset;
import org.offlink.runtime.TempDirectory;
import org.offlink.runtime.Uninterruptibly;

/**
 * The real {@link ProcessRunner}: runs argv lists through {@link ProcessBuilder} (never a shell),
 * looks argv[0] up on the command's own {@code PATH} when it has no slash (libiberty's {@code
 * PEX_SEARCH}), writes response files and echoes the argv that is really run (so {@code prog
 * @file} when a response file is used) with {@code -v} by GCC's {@link CollectExecute} rules, and
 * drains stdout and stderr concurrently. A child killed by signal N reports 128+N, which
 * is what {@link Process#exitValue()} yields on Linux.
 */
public final class SystemProcessRunner implements ProcessRunner {
  static {
    ProcessStartLogger.install();
  }

  /** How long an ended child's tree has to exit before SIGKILL. */
  private static final long END_WAIT_MS = 2000;

  private final CollectExecute conventions;
  private final LinkScope scope;

  /**
   * Where the children's own temporaries go (their TMPDIR), when asked for and without -save-temps:
   * a folder of the link's, made at the first child, which the link's sweep removes with whatever
   * is in it. A GCC driver ended mid-compile does not always remove what it made: about one
   * cancelled link in 60 left an empty {@code .o} or response file of GCC 12's accel driver in
   * TMPDIR, under a name offlink never learns (that driver starts its programs with vfork; the
   * exact window is not pinned down).
   */
  private final Optional<Path> childTempsIn;

  private Path childTemps; // made on first use, guarded by this

  /** Creates a runner with the given behaviour; its children get the link's TMPDIR itself. */
  public SystemProcessRunner(RunnerOptions options) {
    this(options, false);
  }

  /**
   * Creates a runner with the given behaviour; with {@code ownChildTemps} and without -save-temps
   * its children get a TMPDIR folder of the link's (mkoffload's runner: its accel driver's and
   * linker's leftovers). lto-wrapper's runner does not know the link's -save-temps, under which GCC
   * keeps what its children leave in TMPDIR, and keeps the link's TMPDIR.
   */
  public SystemProcessRunner(RunnerOptions options, boolean ownChildTemps) {
    Objects.requireNonNull(options, "options");
    // Only a named response file is kept: without a dump prefix even -save-temps removes it.
    boolean keep = options.saveTemps() && options.dumppfx().isPresent();
    LinkContext context = options.context();
    this.scope = context.scope();
    this.childTempsIn =
        ownChildTemps && !options.saveTemps()
            ? Optional.of(context.tempDirectory())
            : Optional.empty();
    this.conventions =
        new CollectExecute(
            context.err(),
            options.verbose(),
            keep,
            options.dumppfx(),
            ScratchFiles.in(scope, context.tempDirectory()));
  }

  @Override
  public CommandResult run(Command command) throws IOException {
    if (command.responseFileSuffix().isEmpty()) {
      echo(command, command.argv());
      return execute(command, command.argv());
    }
    ResponseFile rsp = conventions.open(command.workingDirectory(), command.responseFileSuffix());
    try {
      List<String> argv = rsp.argv(command.program());
      echo(command, argv);
      rsp.write(scope, command.argv());
      return execute(command, argv);
    } finally {
      conventions.remove(rsp);
    }
  }

  private void echo(Command command, List<String> argv) {
    // Probes are offlink's own business: GCC's -v trace has no such lines.
    if (!command.captureOnly()) {
      conventions.echo(argv);
    }
  }

  private CommandResult execute(Command command, List<String> argv) throws IOException {
    List<String> real = new ArrayList<>(argv);
    real.set(0, resolveProgram(command).toString());
    ProcessBuilder pb =
        new ProcessBuilder(scope.childCommand(real)).directory(command.workingDirectory().toFile());
    pb.environment().clear();
    pb.environment().putAll(command.environment());
    if (childTempsIn.isPresent()) {
      pb.environment().put("TMPDIR", childTemps(childTempsIn.get()).toString());
    }
    long start = System.nanoTime();
    Process process;
    try {
      process = scope.start(pb);
    } catch (LinkScope.CancelledException e) {
      throw interrupted(command);
    } catch (IOException e) {
      // "Cannot run program "x": error=2, ..." is the JDK's wording; ours names the program.
      throw new IOException(ErrorText.of(e), e);
    }
    int status;
    FutureTask<byte[]> out;
    FutureTask<byte[]> err;
    Thread feeder = null;
    try {
      if (command.input().isPresent()) {
        feeder = feed(process, command.input().get());
      } else {
        process.getOutputStream().close();
      }
      out = drain(process.getInputStream());
      err = drain(process.getErrorStream());
      status = waitFor(process, command, argv);
    } finally {
      scope.childEnded(process);
      if (feeder != null) {
        command.input().get().abandon(); // the child has gone: its feeder waits for nobody
        Uninterruptibly.await(feeder::join);
      }
    }
    Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
    Charset cs = NativeCharset.CHARSET;
    String stderr = new String(join(err), cs);
    Optional<String> failed = scope.startFailure(status, stderr);
    if (failed.isPresent()) {
      // A link server's child, started through offlink-exec, which could not exec the program:
      // the same error as a JVM's own start of it gives.
      throw new IOException(
          ErrorText.of(
              new IOException("Cannot run program \"" + real.get(0) + "\": " + failed.get())));
    }
    return new CommandResult(argv, status, new String(join(out), cs), stderr, elapsed);
  }

  private synchronized Path childTemps(Path in) throws IOException {
    if (childTemps == null) {
      childTemps = TempDirectory.createFolder(scope, in, ".d");
    }
    return childTemps;
  }

  private static IOException interrupted(Command command) {
    return new IOException(command.program() + ": interrupted");
  }

  private Path resolveProgram(Command command) throws IOException {
    String program = command.program();
    if (program.contains("/")) {
      return command.workingDirectory().resolve(program);
    }
    String path = command.environment().getOrDefault("PATH", "");
    return ExecutableSearch.onPath(program, path, command.workingDirectory())
        .orElseThrow(() -> new IOException("execvp: " + program + ": No such file or directory"));
  }

  private static int waitFor(Process process, Command command, List<String> argv)
      throws IOException {
    try {
      if (command.timeout().isEmpty()) {
        return process.waitFor();
      }
      if (process.waitFor(command.timeout().get().toMillis(), TimeUnit.MILLISECONDS)) {
        return process.exitValue();
      }
      end(process);
      throw new ToolFailedException(argv, -1, "");
    } catch (InterruptedException e) {
      // The flag is clear here, as ChildEnding's waits need it; set again after.
      end(process);
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running " + command.program(), e);
    }
  }

  /**
   * Ends {@code process} and its descendants as a cancelled link's are ended (SIGHUP first, on
   * which GCC's programs remove their temporary files), never by SIGKILL alone: a job thread
   * interrupted while a cancel was ending the same tree SIGKILLed it and left collect2's response
   * file behind.
   */
  private static void end(Process process) {
    ChildEnding.endTrees(List.of(process.toHandle()), END_WAIT_MS);
    if (process.isAlive()) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
    }
  }

  @Override
  public boolean feedsLateInput() {
    return true;
  }

  /**
   * Writes {@code input}'s bytes to the child once they are given and closes its input after them;
   * ends the child when the input is abandoned first. A child that stops reading (it failed, or was
   * ended) breaks the pipe: its exit status says what happened, not this write.
   */
  private static Thread feed(Process process, LateInput input) {
    Thread t =
        new Thread(
            () -> {
              try (OutputStream stdin = process.getOutputStream()) {
                byte[] bytes = input.await();
                if (bytes == null) {
                  if (process.isAlive()) {
                    end(process);
                  }
                } else {
                  stdin.write(bytes);
                }
              } catch (IOException e) {
                // the child has stopped reading
              } catch (InterruptedException e) {
                end(process);
              }
            },
            "offlink-feed");
    t.setDaemon(true);
    t.start();
    return t;
  }

  // A FutureTask on a thread of its own, not CompletableFuture.supplyAsync: CompletableFuture's
  // class set-up (it sizes ForkJoinPool's common pool) costs a cold JVM ~2 ms.
  private static FutureTask<byte[]> drain(InputStream in) {
    FutureTask<byte[]> task =
        new FutureTask<>(
            () -> {
              try (in) {
                return in.readAllBytes();
              }
            });
    Thread t = new Thread(task, "offlink-drain");
    t.setDaemon(true);
    t.start();
    return task;
  }

  private static byte[] join(FutureTask<byte[]> f) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading child output", e);
    } catch (ExecutionException e) {
      throw new IOException("reading child output: " + e.getCause().getMessage(), e.getCause());
    }
  }
}
