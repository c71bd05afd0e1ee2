package org.offlink.ltowrapper.exec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.offlink.bridge.process.CollectExecute;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.bridge.process.ResponseFile;
import org.offlink.ltowrapper.report.ChildKind;
import org.offlink.ltowrapper.report.LinkRecorder;
import org.offlink.ltowrapper.run.Diagnostics;
import org.offlink.ltowrapper.run.DumpNames;
import org.offlink.ltowrapper.run.LinkTemps;
import org.offlink.ltowrapper.run.LtoWrapperException;
import org.offlink.runtime.LinkContext;

/**
 * Runs child programs the way GCC's {@code fork_execute} does (CU:143), with the response file and
 * {@code -v} echo of {@link CollectExecute} (shared with mkoffload's runner); a non-zero exit is
 * fatal ({@code <prog> returned <n> exit status}) and every run is entered in the link report. The
 * child's output goes to our stderr: stdout is protocol.
 */
public final class ChildRunner {
  private final ProcessRunner runner;
  private final LinkContext context;
  private final LinkTemps temps;
  private final Diagnostics diag;
  private final boolean verbose;
  private final CollectExecute conventions;
  private final LinkRecorder report;

  /** Creates the runner for one lto-wrapper run; every child is recorded in {@code report}. */
  public ChildRunner(
      ProcessRunner runner,
      LinkContext context,
      LinkTemps temps,
      Diagnostics diag,
      boolean verbose,
      DumpNames dump,
      LinkRecorder report) {
    this.runner = runner;
    this.context = context;
    this.temps = temps;
    this.diag = diag;
    this.verbose = verbose;
    this.conventions =
        new CollectExecute(
            diag.stream(), verbose, temps.saveTemps(), Optional.of(dump.prefix()), temps.scratch());
    this.report = report;
  }

  /** The link children run for: their environment, working folder, scope. */
  public LinkContext context() {
    return context;
  }

  /**
   * Runs {@code argv} through a response file.
   *
   * @param atSuffix the save-temps response file suffix, or null for a temp name always
   */
  public void runWithResponseFile(ChildKind kind, List<String> argv, String atSuffix) {
    checked(argv, runWithResponseFileCapturing(kind, argv, atSuffix));
  }

  /**
   * Runs {@code argv} through a response file like {@link #runWithResponseFile} but leaves a
   * non-zero exit to the caller: the child's output is forwarded only when it succeeded.
   */
  public CommandResult runWithResponseFileCapturing(
      ChildKind kind, List<String> argv, String atSuffix) {
    return throughResponseFile(
        kind, argv, atSuffix, shown -> runShown(shown, context.environment()));
  }

  /**
   * Runs {@code argv} in this JVM ({@code body}, given the full argv), with GCC's conventions where
   * someone can see them: with {@code -v} or {@code -save-temps} the response file is written,
   * echoed and kept as for a child; otherwise there is no exec and no argv limit, so it is neither
   * written nor read back. Leaves a non-zero exit to the caller, like {@link
   * #runWithResponseFileCapturing}.
   */
  public CommandResult runInProcessCapturing(
      ChildKind kind, List<String> argv, String atSuffix, InProcessBody body) {
    if (verbose || temps.saveTemps()) {
      return throughResponseFile(kind, argv, atSuffix, shown -> body.run(argv));
    }
    return forwardIfSucceeded(start(kind, argv, argv, shown -> body.run(argv)));
  }

  /** A program run inside this JVM: what it printed and its status, as a child's result. */
  @FunctionalInterface
  public interface InProcessBody {
    /** Runs with the full {@code argv} (argv[0] the program). */
    CommandResult run(List<String> argv) throws IOException;
  }

  private CommandResult throughResponseFile(
      ChildKind kind, List<String> argv, String atSuffix, Exec exec) {
    ResponseFile rsp = open(atSuffix);
    try {
      rsp.write(context.scope(), argv);
    } catch (IOException e) {
      throw new LtoWrapperException("could not write to response file " + rsp.name(), e);
    }
    try {
      return forwardIfSucceeded(start(kind, rsp.argv(argv.get(0)), argv, exec));
    } finally {
      remove(rsp);
    }
  }

  // LinkTemps#scratch fails as LtoWrapperException already; these catches serve the signatures.
  private ResponseFile open(String atSuffix) {
    try {
      return conventions.open(context.workingDirectory(), Optional.ofNullable(atSuffix));
    } catch (IOException e) {
      throw new LtoWrapperException(e.getMessage(), e);
    }
  }

  private void remove(ResponseFile rsp) {
    try {
      conventions.remove(rsp);
    } catch (IOException e) {
      throw new LtoWrapperException(e.getMessage(), e);
    }
  }

  /** Runs {@code argv} directly with {@code env}, echoing it when verbose. */
  public void run(ChildKind kind, List<String> argv, Map<String, String> env) {
    CommandResult result = start(kind, argv, argv, shown -> runShown(shown, env));
    checked(argv, forwardIfSucceeded(result));
  }

  /** Runs the shown argv as a child with {@code env}, in the link's working folder. */
  private CommandResult runShown(List<String> shown, Map<String, String> env) throws IOException {
    return runner.run(Command.of(new ArrayList<>(shown), env, context.workingDirectory()));
  }

  /** How a shown argv is run: as a child, or in this JVM. */
  @FunctionalInterface
  private interface Exec {
    CommandResult run(List<String> shown) throws IOException;
  }

  /**
   * Runs {@code shown} (echoed when verbose); {@code reported} is the argv the link report shows
   * (no {@code @file}).
   */
  private CommandResult start(
      ChildKind kind, List<String> shown, List<String> reported, Exec exec) {
    conventions.echo(shown);
    long start = report.now();
    CommandResult result;
    try {
      result = exec.run(shown);
    } catch (IOException e) {
      report.commandNotStarted(kind, reported, start, describe(e));
      throw new LtoWrapperException("execvp: " + describe(e), e);
    }
    report.commandFinished(
        kind, reported, result.exitStatus(), start, result.elapsed(), result.stderr());
    return result;
  }

  private CommandResult forwardIfSucceeded(CommandResult result) {
    if (result.succeeded()) {
      forward(result);
    }
    return result;
  }

  /** Forwards a failed child's output and raises GCC's {@code returned N exit status}. */
  public void checked(List<String> argv, CommandResult result) {
    if (!result.succeeded()) {
      forward(result);
      throw exitFailure(argv, result);
    }
  }

  /** GCC's {@code <program> returned N exit status} for a failed child. */
  public LtoWrapperException exitFailure(List<String> argv, CommandResult result) {
    return new LtoWrapperException(
        argv.get(0) + " returned " + result.exitStatus() + " exit status");
  }

  /** Copies a child's captured output to our stderr (stdout is protocol). */
  public void forward(CommandResult result) {
    if (!result.stdout().isEmpty() || !result.stderr().isEmpty()) {
      diag.raw(result.stdout() + result.stderr());
    }
  }

  private static String describe(IOException e) {
    String m = String.valueOf(e.getMessage());
    return m.contains("No such file") || m.contains("error=2") ? "No such file or directory" : m;
  }
}
