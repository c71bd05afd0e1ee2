package org.offlink.streamer.io;

import java.nio.file.Path;

/**
 * Names relative to a working directory, kept relative when that directory is the process's own.
 *
 * <p>The kernel resolves a relative name against the process's working directory however deep it
 * is, while an absolute name longer than {@code PATH_MAX} (4096 bytes on Linux) is refused with
 * {@code ENAMETOOLONG}. Stock GCC passes names such as {@code ./a.ltrans_args} as they are, so a
 * {@code -save-temps} link in a 4,090-character directory works; resolving them against the
 * absolute working directory would not. A different directory (a test's, a child's) still gives
 * {@code dir.resolve(name)}.
 */
public final class WorkingDirectory {
  private WorkingDirectory() {}

  /** {@code name} as the file system should see it from {@code cwd}. */
  public static Path resolve(Path cwd, String name) {
    return resolve(cwd, Path.of(name));
  }

  /** {@code name} as the file system should see it from {@code cwd}. */
  public static Path resolve(Path cwd, Path name) {
    if (name.isAbsolute() || !isProcessDirectory(cwd)) {
      return cwd.resolve(name);
    }
    return name;
  }

  /** Whether {@code cwd} is the directory relative names already resolve against. */
  static boolean isProcessDirectory(Path cwd) {
    return cwd.toString().isEmpty() || cwd.equals(Path.of("").toAbsolutePath());
  }
}
