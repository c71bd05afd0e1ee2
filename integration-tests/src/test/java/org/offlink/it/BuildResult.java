package org.offlink.it;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of building one corpus program for one target set with one tool folder: the exit
 * status of the first failing step (0 when all passed), that step's diagnostics, a log of every
 * step (argv and stderr) and, on success, the executable.
 */
record BuildResult(
    CorpusProgram program,
    TargetSet targets,
    ToolDir tools,
    Path workDirectory,
    int exitStatus,
    String failureDiagnostics,
    String log,
    Optional<Path> executable) {
  /** Checks the fields. */
  BuildResult {
    Objects.requireNonNull(program, "program");
    Objects.requireNonNull(targets, "targets");
    Objects.requireNonNull(tools, "tools");
    Objects.requireNonNull(workDirectory, "workDirectory");
    Objects.requireNonNull(failureDiagnostics, "failureDiagnostics");
    Objects.requireNonNull(log, "log");
    Objects.requireNonNull(executable, "executable");
    if ((exitStatus == 0) != executable.isPresent()) {
      throw new IllegalArgumentException("an executable exists exactly when the build passed");
    }
  }

  /** Whether every step passed. */
  boolean succeeded() {
    return exitStatus == 0;
  }

  /** A one-line description for assertion messages. */
  String describe() {
    return program.name() + " [" + targets.label() + ", " + tools.label() + "]";
  }
}
