package org.offlink.ltowrapper.reproduce;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The names inside a reproducer bundle, relative to its top folder, and where a recorded absolute
 * path goes under a root folder (the bundle's {@code files/}, a replay's scratch root). Shared by
 * the writer ({@link Reproducer}) and the reader ({@code offlink replay}, in offlink-cli).
 */
public final class BundlePaths {
  public static final String MANIFEST = "manifest.json";
  public static final String REPORT = "report.json";
  public static final String REPLAY = "replay";
  public static final String FILES = "files/";

  private BundlePaths() {}

  /** The entry of the absolute {@code file}: {@code files/} and its path without the '/'. */
  public static String entryOf(Path file) {
    return FILES + file.toString().substring(1);
  }

  /**
   * The recorded absolute {@code path} as a path relative to a root it is placed under, normalised
   * ({@code /a/./b} gives {@code a/b}, {@code /} gives the empty path); empty when it is not
   * absolute or would leave that root ({@code /../x}, {@code /a/../../x}).
   */
  public static Optional<Path> inside(String path) {
    if (!path.startsWith("/")) {
      return Optional.empty();
    }
    try {
      Path rel = Path.of(path.substring(1)).normalize();
      if (rel.isAbsolute() || rel.startsWith("..")) {
        return Optional.empty();
      }
      return Optional.of(rel);
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
  }

  /** {@code root} and the recorded absolute {@code path}, which {@link #inside} accepted. */
  public static Path under(Path root, String path) {
    Path rel =
        inside(path)
            .orElseThrow(() -> new IllegalArgumentException(path + ": outside the bundle's root"));
    return rel.toString().isEmpty() ? root : root.resolve(rel);
  }
}
