package org.offlink.runtime;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Plain writes (to files a link has made in its own temporary folder, where nothing needs the
 * atomic rename of {@link AtomicFiles}) whose errors name the file. The JDK's stream errors do not:
 * a full TMPDIR gave "mkoffload: fatal error: No space left on device", with no word of where.
 */
public final class NamedFiles {
  private NamedFiles() {}

  /**
   * {@link Files#write(Path, byte[], java.nio.file.OpenOption...)}, its error naming {@code file},
   * as one step of {@code scope} that its cancel cannot split ({@link LinkScope#publish}): the
   * files written here are the scope's, made empty ahead (GCC's {@code make_temp_file}) and swept
   * at a cancel, and a write that went on after the sweep made the file again, to stay.
   *
   * @throws IOException "{@code file}: interrupted" when the link is cancelled (nothing written)
   */
  public static void write(LinkScope scope, Path file, byte[] bytes) throws IOException {
    scope.publish(
        file,
        () -> {
          try {
            Files.write(file, bytes);
          } catch (IOException e) {
            throw naming(file, e);
          }
        });
  }

  /**
   * Copies {@code source} over {@code file}, a file of {@code scope}, as one step its cancel cannot
   * split (as {@link #write}).
   *
   * @throws IOException "{@code file}: interrupted" when the link is cancelled (nothing copied)
   */
  public static void copy(LinkScope scope, Path source, Path file) throws IOException {
    scope.publish(file, () -> Files.copy(source, file, StandardCopyOption.REPLACE_EXISTING));
  }

  /** {@code e} as a {@link FileSystemException} of {@code file}, unless it names a file already. */
  public static IOException naming(Path file, IOException e) {
    if (e instanceof FileSystemException) {
      return e;
    }
    FileSystemException named = new FileSystemException(file.toString(), null, e.getMessage());
    named.initCause(e);
    return named;
  }
}
