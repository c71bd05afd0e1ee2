package org.offlink.bridge.process;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One program run: argv (argv[0] is the program, a path or a name looked up on PATH by the
 * runner), the complete environment of the child, its working directory, an optional timeout and,
 * when set, the GCC response-file stem: the arguments after argv[0] are then passed as {@code
 * @file} the way GCC's {@code fork_execute} does, named {@code <stem><suffix>} with {@code
 * -save-temps} (e.g. {@code .gccnative_args}), and its {@link Role}: {@link Role#PROBE} marks probes and queries (a
 * {@code ptxas} check, {@code gcc -dumpversion}) whose output is for offlink alone, never shown
 * to the user, and the bytes of its standard input when they come after its start ({@link
 * LateInput}). Never run through a shell.
 */
public record Command(
    List<String> argv,
    Map<String, String> environment,
    Path workingDirectory,
    Optional<Duration> timeout,
    Optional<String> responseFileSuffix,
    Role role,
    Optional<LateInput> input) {
  /** Copies and checks the arguments. */
  public Command {
    argv = List.copyOf(Objects.requireNonNull(argv, "argv"));
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("empty argv");
    }
    environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(responseFileSuffix, "responseFileSuffix");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(input, "input");
  }

  /** What a program run is for, as the one who runs it knows (for the link report). */
  public enum Role {
    /** A probe or query whose output is for offlink alone, never shown to the user. */
    PROBE,
    /** The accel compiler driver: a device compile or link. */
    ACCEL_COMPILER,
    /**
     * The accel compiler driver, its output held back (captured, not shown) for the caller, who
     * shows it if it keeps the run's result ({@link org.offlink.bridge.nvptx.NvptxLinkerStandIn}).
     */
    ACCEL_COMPILER_HELD,
    /** The host compiler ({@code COLLECT_GCC}): mkoffload's compile of a C-form wrapper. */
    HOST_COMPILER,
    /** Anything else. */
    OTHER
  }

  /** A plain run: no timeout, no response file. */
  public static Command of(List<String> argv, Map<String, String> environment, Path dir) {
    return new Command(
        argv, environment, dir, Optional.empty(), Optional.empty(), Role.OTHER, Optional.empty());
  }

  /** This command with a timeout. */
  public Command withTimeout(Duration limit) {
    return new Command(
        argv, environment, workingDirectory, Optional.of(limit), responseFileSuffix, role, input);
  }

  /** This command passing its arguments in a response file named with {@code suffix}. */
  public Command withResponseFile(String suffix) {
    return new Command(
        argv, environment, workingDirectory, timeout, Optional.of(suffix), role, input);
  }

  /** This command as a probe: its output is captured for offlink and never shown. */
  public Command asProbe() {
    return as(Role.PROBE);
  }

  /** This command in {@code newRole}. */
  public Command as(Role newRole) {
    return new Command(
        argv, environment, workingDirectory, timeout, responseFileSuffix, newRole, input);
  }

  /**
   * This command reading {@code late} on its standard input (otherwise its input is closed at its
   * start); only for a runner that {@link ProcessRunner#feedsLateInput feeds late input}.
   */
  public Command withInput(LateInput late) {
    return new Command(
        argv, environment, workingDirectory, timeout, responseFileSuffix, role, Optional.of(late));
  }

  /**
   * Whether this is a probe, whose output is captured for offlink and never shown, or a run whose
   * output its caller shows itself.
   */
  public boolean captureOnly() {
    return role == Role.PROBE || role == Role.ACCEL_COMPILER_HELD;
  }

  /** The program, argv[0]. */
  public String program() {
    return argv.get(0);
  }
}
