package org.offlink.runtime;

import java.nio.file.Path;

/**
 * Names relative to a working directory, kept relative when that directory is the process's own.
 *
 * <p>The kernel resolves a relative name against the process's working directory however deep it
 * is, while an absolute name longer than {@code PATH_MAX} (4096 bytes on Linux) is refused with
 * {@code ENAMETOOLONG}. Stock GCC passes names such as {@code ./a.ltrans_args} as they are, so a
 * {@code -save-temps} link in a 4,090-character directory works; resolving them against the
 * absolute working directory would not. A different directory (a test's, another link's in a shared
 * JVM) still gives {@code dir.resolve(name)}.
 *
 * <p>Which directory is the process's own is told once, by the process edge ({@link
 * CommandStartup}); library code never asks the JVM for its folder. Until then (a test, a JVM that
 * only runs links for others) only the empty path counts as the process's.
 */
public final class WorkingDirectory {
  private static volatile Path processDirectory;

  private WorkingDirectory() {}

  /** Records the process's working directory (absolute); for the process edge only. */
  static void useProcessDirectory(Path absolute) {
    processDirectory = absolute;
  }

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
    return cwd.toString().isEmpty() || cwd.equals(processDirectory);
  }
}
