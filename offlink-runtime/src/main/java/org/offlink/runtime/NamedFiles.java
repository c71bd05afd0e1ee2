package org.offlink.runtime;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Plain writes (to files a link has made in its own temporary folder, where nothing needs the
 * atomic rename of {@link AtomicFiles}) whose errors name the file. The JDK's stream errors do not:
 * a full TMPDIR gave "mkoffload: fatal error: No space left on device", with no word of where.
 */
public final class NamedFiles {
  private NamedFiles() {}

  /**
   * {@link Files#write(Path, byte[], java.nio.file.OpenOption...)}, its error naming {@code file}.
   */
  public static void write(Path file, byte[] bytes) throws IOException {
    try {
      Files.write(file, bytes);
    } catch (IOException e) {
      throw naming(file, e);
    }
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
