package org.offlink.ltowrapper.reproduce;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.offlink.runtime.WorkingDirectory;

/**
 * Whether a link writes a reproducer bundle, and where: {@code OFFLINK_REPRODUCE=FILE.tar} on every
 * run, {@code OFFLINK_REPRODUCE_ON_FAILURE=DIR} into {@code DIR} when the link fails. Relative
 * names are relative to the link's working directory; empty values count as unset.
 */
public record ReproduceRequest(Optional<Path> always, Optional<Path> onFailureDirectory) {
  /** The variable naming a bundle written on every run. */
  public static final String ALWAYS = "OFFLINK_REPRODUCE";

  /** The variable naming a folder for a bundle written when the link fails. */
  public static final String ON_FAILURE = "OFFLINK_REPRODUCE_ON_FAILURE";

  /** No bundle. */
  public static final ReproduceRequest NONE =
      new ReproduceRequest(Optional.empty(), Optional.empty());

  /** The request of {@code environment} for a run in {@code cwd}. */
  public static ReproduceRequest of(Map<String, String> environment, Path cwd) {
    return new ReproduceRequest(path(environment, ALWAYS, cwd), path(environment, ON_FAILURE, cwd));
  }

  private static Optional<Path> path(Map<String, String> env, String name, Path cwd) {
    String v = env.getOrDefault(name, "");
    return v.isEmpty() ? Optional.empty() : Optional.of(WorkingDirectory.resolve(cwd, v));
  }

  /** Whether any bundle may be written (the run must then record its report). */
  public boolean enabled() {
    return always.isPresent() || onFailureDirectory.isPresent();
  }

  /**
   * Where the bundle of a run ending with {@code exitStatus} goes: the {@code ALWAYS} file, else
   * for a failure {@code DIR/offlink-reproduce-<output name>.tar}.
   */
  public Optional<Path> target(int exitStatus, String outputName) {
    if (always.isPresent()) {
      return always;
    }
    if (exitStatus != 0 && onFailureDirectory.isPresent()) {
      return Optional.of(
          onFailureDirectory.get().resolve("offlink-reproduce-" + outputName + ".tar"));
    }
    return Optional.empty();
  }
}
