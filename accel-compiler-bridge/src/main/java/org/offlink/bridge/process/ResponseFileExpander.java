package org.offlink.bridge.process;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.offlink.runtime.FileKinds;
import org.offlink.runtime.NativeCharset;
import org.offlink.runtime.WorkingDirectory;

/**
 * Expands {@code @file} arguments the way libiberty's {@code expandargv} does (GCC's tools call it
 * first thing): an argument {@code @name} whose file can be read is replaced in place by the words
 * of that file ({@link ResponseFiles#split}), and the replacement is scanned again, so nested
 * response files work. A file that cannot be read leaves the argument unchanged; a directory and
 * more than 2000 expansions are errors. Element 0 (the program name) is never expanded.
 *
 * <p>expandargv reads as many bytes as {@code fseek}/{@code ftell} report: a character device such
 * as {@code /dev/zero} reports 0 and expands to nothing, a FIFO cannot seek and stays verbatim. The
 * same happens here, so no device makes us read without end; a regular file over {@value
 * #MAX_BYTES} bytes is an error naming that limit rather than a heap exhausted.
 */
public final class ResponseFileExpander {
  /** libiberty's limit on the number of {@code @file} expansions. */
  static final int MAX_EXPANSIONS = 2000;

  /** The largest response file read: 64 MiB, far beyond any command line GCC writes. */
  static final long MAX_BYTES = 64L << 20;

  private final Path workingDirectory;

  /** Creates an expander resolving relative names against {@code workingDirectory}. */
  public ResponseFileExpander(Path workingDirectory) {
    this.workingDirectory = workingDirectory;
  }

  /**
   * Returns the expanded argv.
   *
   * @throws ResponseFileException with libiberty's text (without the program prefix)
   */
  public List<String> expand(List<String> argv) throws ResponseFileException {
    List<String> out = new ArrayList<>(argv);
    int expansions = 0;
    for (int i = 1; i < out.size(); ) {
      String arg = out.get(i);
      if (!arg.startsWith("@")) {
        i++;
        continue;
      }
      Optional<String> text = read(arg.substring(1));
      if (text.isEmpty()) {
        i++; // unreadable: kept verbatim, exactly like expandargv
        continue;
      }
      if (++expansions > MAX_EXPANSIONS) {
        throw new ResponseFileException("too many @-files encountered");
      }
      out.remove(i);
      out.addAll(i, ResponseFiles.split(text.get()));
    }
    return List.copyOf(out);
  }

  /** The text of response file {@code name}, or empty when expandargv could not read it. */
  private Optional<String> read(String name) throws ResponseFileException {
    Path file;
    try {
      file = WorkingDirectory.resolve(workingDirectory, name);
    } catch (InvalidPathException e) {
      return Optional.empty(); // a name no file can have (a NUL in it): fopen fails the same way
    }
    if (Files.isDirectory(file)) {
      throw new ResponseFileException("@-file refers to a directory");
    }
    try {
      if (FileKinds.isDevice(file)) {
        return Optional.of(""); // ftell reports 0 bytes for a device
      }
      if (!Files.isRegularFile(file)) {
        return Optional.empty(); // a FIFO or socket: fseek fails, the argument stays
      }
      long size = Files.size(file);
      if (size > MAX_BYTES) {
        throw new ResponseFileException(
            "@-file '"
                + file
                + "' is "
                + size
                + " bytes, over the limit of "
                + MAX_BYTES
                + " bytes");
      }
      try (InputStream in = Files.newInputStream(file)) {
        return Optional.of(new String(in.readNBytes((int) size), NativeCharset.CHARSET));
      }
    } catch (ResponseFileException e) {
      throw e;
    } catch (IOException | SecurityException | UnsupportedOperationException e) {
      return Optional.empty();
    }
  }

  /** An {@code expandargv} error; GCC prints it as {@code <prog>: error: <message>}, exit 1. */
  public static final class ResponseFileException extends IOException {
    private static final long serialVersionUID = 1L;

    ResponseFileException(String message) {
      super(message);
    }
  }
}
