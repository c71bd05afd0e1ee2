package org.offlink.bridge.tool;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A located program: {@code argv0} is what goes on the command line (GCC keeps a bare name when it
 * relies on PATH, so {@code -v} output matches), {@code path} where it actually is.
 */
public record ResolvedTool(String argv0, Path path) {
  /** Checks the fields. */
  public ResolvedTool {
    Objects.requireNonNull(argv0, "argv0");
    Objects.requireNonNull(path, "path");
  }
}
