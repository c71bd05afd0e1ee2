package org.offlink.bridge.mkoffload;

import java.util.Objects;

/**
 * Why a {@link Mkoffload} run failed, typed, for a caller in the same JVM: what kind of failure,
 * the diagnostic it printed ({@code <program>: fatal error: <message>}) and, when a program it ran
 * failed, everything that program printed (where an accel tool names the symbol or option it
 * rejects). A mkoffload run as a program tells the same only as text.
 *
 * @param kind what failed
 * @param program the program name in the diagnostic ({@code mkoffload}, or GCC 13+'s per-target
 *     name once the GCC is known)
 * @param message the diagnostic's text after {@code fatal error: }
 * @param toolOutput what the failed program printed (stdout, then stderr); empty for a failure of
 *     mkoffload's own
 */
public record MkoffloadFailure(Kind kind, String program, String message, String toolOutput) {
  /** What failed. */
  public enum Kind {
    /** The options: a missing or bad {@code -foffload-abi=}, no {@code -o}, ... */
    OPTIONS,
    /** The detected GCC version or target is one offlink does not build images for. */
    UNSUPPORTED_GCC,
    /** An accel tool could not be found. */
    TOOL_NOT_FOUND,
    /** A program mkoffload ran (the accel compiler, the host compiler) failed. */
    TOOL_FAILED,
    /** An input or an intermediate file is not what it should be. */
    MALFORMED_INPUT,
    /** A file could not be read or written. */
    IO,
    /** Anything else: a bug. */
    INTERNAL
  }

  /** Checks the fields. */
  public MkoffloadFailure {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(program, "program");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(toolOutput, "toolOutput");
  }

  /** The diagnostic line mkoffload printed: {@code <program>: fatal error: <message>}. */
  public String line() {
    return program + ": fatal error: " + message;
  }
}
