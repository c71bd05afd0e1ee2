package org.offlink.runtime;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The one place that picks the temporary directory and creates temporary files there, with
 * libiberty's rules ({@code choose_tmpdir} and {@code make_temp_file} in make-temp-file.c), used by
 * lto-wrapper, mkoffload and the zstd loader alike.
 *
 * <p>The directory is the first of {@code $TMPDIR}, {@code $TMP}, {@code $TEMP}, {@code /tmp}
 * (glibc's {@code P_tmpdir}), {@code /var/tmp}, {@code /usr/tmp}, {@code /tmp} that the process may
 * read, write and search ({@code access(dir, R_OK|W_OK|X_OK)}), and is a directory (libiberty
 * checks access only, then fails in {@code mkstemps}; a directory check costs nothing and names the
 * problem earlier); else {@code .}. So an unwritable {@code TMPDIR} falls back to {@code /tmp}, as
 * with stock GCC. Relative names are taken from the working directory.
 */
public final class TempDirectory {
  private static final List<String> VARIABLES = List.of("TMPDIR", "TMP", "TEMP");
  private static final List<String> FALLBACKS = List.of("/tmp", "/var/tmp", "/usr/tmp", "/tmp");

  private TempDirectory() {}

  /** {@code choose_tmpdir} for this environment and working directory. */
  public static Path choose(Map<String, String> environment, Path workingDirectory) {
    return choose(environment, workingDirectory, TempDirectory::usable);
  }

  static Path choose(Map<String, String> environment, Path cwd, Predicate<Path> usable) {
    for (String name : VARIABLES) {
      String value = environment.get(name);
      if (value != null && !value.isEmpty() && usable.test(cwd.resolve(value))) {
        return cwd.resolve(value);
      }
    }
    for (String dir : FALLBACKS) {
      if (usable.test(Path.of(dir))) {
        return Path.of(dir);
      }
    }
    return cwd;
  }

  private static boolean usable(Path dir) {
    return Files.isDirectory(dir)
        && Files.isReadable(dir)
        && Files.isWritable(dir)
        && Files.isExecutable(dir);
  }

  /**
   * {@code make_temp_file}: creates {@code <dir>/cc} + 6 random letters and digits + {@code
   * suffix}, mode 0600 from the start, and tracks it in the link's {@code scope}.
   *
   * @throws IOException {@code cannot create temporary file in <dir>: <reason>}
   */
  public static Path createFile(LinkScope scope, Path dir, String suffix) throws IOException {
    return create(scope, dir, suffix, file -> Files.createFile(file, Umask.OWNER_ONLY));
  }

  /**
   * A folder of the link's own, {@code <dir>/cc} + 6 random letters and digits + {@code suffix},
   * mode 0700, tracked in {@code scope} like a file: the sweep removes it with whatever is in it.
   *
   * @throws IOException {@code cannot create temporary file in <dir>: <reason>}
   */
  public static Path createFolder(LinkScope scope, Path dir, String suffix) throws IOException {
    return create(
        scope, dir, suffix, folder -> Files.createDirectory(folder, Umask.OWNER_ONLY_FOLDER));
  }

  /**
   * A symbolic link to {@code target}, {@code <dir>/cc} + 6 random letters and digits + {@code
   * suffix}, made under a name nobody had (as {@link #createFile}) and tracked in {@code scope}:
   * its removal removes the link, never what it points to.
   *
   * @throws IOException {@code cannot create temporary file in <dir>: <reason>}
   */
  public static Path createLink(LinkScope scope, Path dir, String suffix, Path target)
      throws IOException {
    return create(scope, dir, suffix, link -> Files.createSymbolicLink(link, target));
  }

  @FunctionalInterface
  private interface Maker {
    void make(Path path) throws IOException;
  }

  private static Path create(LinkScope scope, Path dir, String suffix, Maker maker)
      throws IOException {
    for (int attempt = 0; attempt < TempNames.ATTEMPTS; attempt++) {
      Path file = dir.resolve("cc" + TempNames.random(6) + suffix);
      try {
        scope.create(file, () -> maker.make(file));
      } catch (FileAlreadyExistsException e) {
        continue; // another name, as mkstemps retries
      } catch (FileSystemException e) {
        throw new IOException(
            "cannot create temporary file in " + dir + ": " + IoReasons.reason(e), e);
      }
      return file;
    }
    throw new IOException(
        "cannot create temporary file in " + dir + ": " + TempNames.ATTEMPTS + " names taken");
  }

  /**
   * Removes {@code folder} and everything under it, following no symbolic link; best effort and
   * silent (what cannot be removed is left for the system's tmp cleaner).
   */
  public static void deleteTree(Path folder) {
    Leftovers.removeTree(folder);
  }

  /** Deletes a file made by {@link #createFile} and stops tracking it. */
  public static void delete(LinkScope scope, Path file) throws IOException {
    Files.deleteIfExists(file);
    scope.untrack(file);
  }
}
