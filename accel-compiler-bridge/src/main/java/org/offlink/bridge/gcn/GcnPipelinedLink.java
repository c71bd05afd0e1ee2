package org.offlink.bridge.gcn;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Function;
import org.offlink.bridge.gcc.MkoffloadDumpNames;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.LateInput;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.bridge.temp.TempFiles;
import org.offlink.runtime.LinkScope;
import org.offlink.runtime.Uninterruptibly;

/**
 * The link step of the gcn image (accel driver: {@code as}, then {@code collect2} and {@code ld}),
 * started while the device compile still runs. GCC's mkoffload starts it only once it has written
 * the processed assembly; its assembler ({@code llvm-mc}) then spends 15-20 ms loading LLVM before
 * it reads a byte, on the critical path. Here the driver runs with the same arguments, but the
 * assembly file it is given is a symbolic link to {@code /proc/self/fd/0}: the assembler, reading
 * it, reads its own standard input, a pipe the runner fills once the assembly is known ({@link
 * LateInput}). The image is the same: the assembler reads the same bytes under the same kind of
 * name (a random temporary one, in GCC as here), and nothing of the file itself enters its output.
 *
 * <p>Its output is held until {@link #finish} and shown only if the run succeeded. A run that
 * failed, for whatever reason, is not reported: the caller runs the link step again as GCC does (a
 * file, then the driver), so that a broken link fails with GCC's own messages. A compile that fails
 * {@link #abandon}s the early link: its children are ended as a cancelled link's are, and it never
 * reads anything.
 */
final class GcnPipelinedLink {
  private static final Path STDIN = Path.of("/proc/self/fd/0");

  private final LateInput input = new LateInput();
  private final FutureTask<CommandResult> run;
  private volatile boolean abandoned;

  /** How long the link step lets the compile start first, at most. */
  private static final long COMPILE_FIRST_MS = 200;

  private GcnPipelinedLink(ProcessRunner runner, Command command, LinkScope scope) {
    long seen = scope.childrenStarted();
    this.run =
        new FutureTask<>(
            () -> {
              // The compile is the critical path: its start goes first (a link's starts take
              // turns).
              scope.awaitChildStart(seen, COMPILE_FIRST_MS);
              // A compile that could not even start abandons this before it starts.
              return abandoned ? null : runner.run(command.withInput(input));
            });
    Thread t = new Thread(run, "offlink-gcn-link");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Starts the link step whose argv {@code argvFor} gives for an assembly file name, or nothing
   * where that cannot work: a runner that closes its children's input, or no {@code /proc}.
   */
  static Optional<GcnPipelinedLink> start(
      ProcessRunner runner,
      TempFiles temps,
      Function<String, List<String>> argvFor,
      Map<String, String> env,
      Path cwd)
      throws IOException {
    if (!runner.feedsLateInput() || !Files.isDirectory(STDIN.getParent())) {
      return Optional.empty();
    }
    Path asm = temps.link(".mkoffload.2.s", STDIN);
    Command command =
        Command.of(argvFor.apply(asm.toString()), env, cwd)
            .withResponseFile(MkoffloadDumpNames.LD_ARGS)
            .as(Command.Role.ACCEL_COMPILER_HELD);
    return Optional.of(new GcnPipelinedLink(runner, command, temps.scope()));
  }

  /**
   * Gives the link step its assembly and waits for it: its result when it succeeded (its output not
   * shown yet), else nothing (the caller links again, the plain way).
   */
  Optional<CommandResult> finish(byte[] assembly) throws IOException {
    input.supply(assembly);
    try {
      CommandResult result = run.get();
      return result != null && result.succeeded() ? Optional.of(result) : Optional.empty();
    } catch (ExecutionException e) {
      return Optional.empty(); // not started (a cancelled link): the plain run says so
    } catch (InterruptedException e) {
      abandon();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while linking the gcn image", e);
    }
  }

  /** Ends the link step without input and waits until it has gone. */
  void abandon() {
    abandoned = true;
    input.abandon();
    Uninterruptibly.await(
        () -> {
          try {
            run.get();
          } catch (ExecutionException e) {
            // it failed to start: gone as well
          }
        });
  }
}
