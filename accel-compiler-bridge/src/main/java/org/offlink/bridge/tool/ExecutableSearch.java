package org.offlink.bridge.tool;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Lookup of an executable in a colon-separated directory list, the way {@code execvp} and GCC's
 * {@code access_check(X_OK)} do: empty entries mean the current directory, the first regular
 * executable file wins.
 */
public final class ExecutableSearch {
  private ExecutableSearch() {}

  /** Splits a colon list into directories (an empty entry is {@code cwd}). */
  public static List<Path> directories(String list, Path cwd) {
    List<Path> dirs = new ArrayList<>();
    if (list == null) {
      return dirs;
    }
    for (String entry : list.split(":", -1)) {
      dirs.add(entry.isEmpty() ? cwd : cwd.resolve(entry));
    }
    return dirs;
  }

  /** Finds {@code name} in {@code pathList}. */
  public static Optional<Path> onPath(String name, String pathList, Path cwd) {
    return inDirectories(name, directories(pathList, cwd));
  }

  /** Finds {@code name} in the first directory of {@code dirs} that has it as an executable. */
  public static Optional<Path> inDirectories(String name, List<Path> dirs) {
    for (Path dir : dirs) {
      Path candidate = dir.resolve(name);
      if (isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** A regular file the process may execute. */
  public static boolean isExecutable(Path file) {
    return Files.isRegularFile(file) && Files.isExecutable(file);
  }
}
