package org.offlink.ltowrapper;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.offlink.bridge.ToolContext;
import org.offlink.bridge.mkoffload.Mkoffload;
import org.offlink.bridge.mkoffload.MkoffloadInvocation;
import org.offlink.bridge.mkoffload.MkoffloadListener;
import org.offlink.bridge.mkoffload.MkoffloadRequest;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;

/**
 * Runs offlink's own mkoffload inside this JVM instead of starting a second one: a command whose
 * program is (a link to) one of this installation's mkoffload launchers is handed to the {@link
 * Mkoffload} library with the command's environment and working directory, its diagnostics captured
 * like a child's. Every other program, another mkoffload included, runs as a subprocess through the
 * delegate, unchanged.
 */
final class InProcessMkoffloadRunner implements ProcessRunner {
  private final ProcessRunner delegate;
  private final Set<Path> ourLaunchers;
  private final MkoffloadListener listener;

  /**
   * @param ourLaunchers real paths of this installation's {@code accel/<target>/mkoffload}
   */
  InProcessMkoffloadRunner(ProcessRunner delegate, Set<Path> ourLaunchers) {
    this(delegate, ourLaunchers, MkoffloadListener.NONE);
  }

  private InProcessMkoffloadRunner(
      ProcessRunner delegate, Set<Path> ourLaunchers, MkoffloadListener listener) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.ourLaunchers = Set.copyOf(ourLaunchers);
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  /**
   * This runner telling {@code newListener} what its in-process mkoffload runs do (link report).
   */
  InProcessMkoffloadRunner withListener(MkoffloadListener newListener) {
    return new InProcessMkoffloadRunner(delegate, ourLaunchers, newListener);
  }

  /** The launchers of the installation whose lto-wrapper launcher is {@code ltoWrapper}. */
  static Set<Path> launchersBeside(Path ltoWrapper) {
    Path libexec = ltoWrapper.getParent();
    if (libexec == null) {
      return Set.of();
    }
    Set<Path> found = new java.util.HashSet<>();
    for (String target : List.of("nvptx-none", "amdgcn-amdhsa")) {
      Path p = libexec.resolve("accel").resolve(target).resolve("mkoffload");
      try {
        found.add(p.toRealPath());
      } catch (IOException absent) {
        // not installed for this target: nothing to run in-process
      }
    }
    return found;
  }

  @Override
  public boolean runsInProcess(String program, Path workingDirectory) {
    return program.contains("/") && isOurs(workingDirectory.resolve(program));
  }

  @Override
  public CommandResult run(Command command) throws IOException {
    Path program = command.workingDirectory().resolve(command.program());
    if (!runsInProcess(command.program(), command.workingDirectory())) {
      return delegate.run(command);
    }
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    long start = System.nanoTime();
    int status;
    try (PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      ToolContext context =
          new ToolContext(command.environment(), command.workingDirectory(), errStream, errStream);
      List<String> args = new ArrayList<>(command.argv().subList(1, command.argv().size()));
      try {
        // lto-wrapper has read every offload input's .opts section before running mkoffload
        // (and failed on any without one), so mkoffload's own input check would repeat it.
        MkoffloadRequest request =
            MkoffloadInvocation.parse(args, program.toString(), command.environment())
                .withInputsChecked();
        status = new Mkoffload(context, listener).run(request);
      } catch (IllegalArgumentException e) {
        errStream.println("mkoffload: error: " + e.getMessage());
        status = 1;
      }
    }
    return new CommandResult(
        command.argv(),
        status,
        "",
        err.toString(StandardCharsets.UTF_8),
        Duration.ofNanos(System.nanoTime() - start));
  }

  private boolean isOurs(Path program) {
    try {
      return Files.isRegularFile(program) && ourLaunchers.contains(program.toRealPath());
    } catch (IOException e) {
      return false;
    }
  }
}
