package org.offlink.it;

import java.util.Objects;

/** One run of a built corpus program under the registration spy. */
record RunResult(
    BuildResult build, int exitStatus, String stdout, String stderr, RegistrationDump dump) {
  /** Checks the fields. */
  RunResult {
    Objects.requireNonNull(build, "build");
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
    Objects.requireNonNull(dump, "dump");
  }
}
