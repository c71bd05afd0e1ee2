package org.offlink.ltowrapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Expands {@code @file} arguments the way libiberty's {@code expandargv} does: an argument {@code
 * @name} whose file can be read is replaced in place by the words of that file (split by {@link
 * ArgvSyntax#split}), and the replacement is scanned again, so nested response files work. A file
 * that cannot be read leaves the argument unchanged; a directory and more than 2000 expansions are
 * errors. Element 0 (the program name) is never expanded.
 */
public final class ResponseFileExpander {
  /** libiberty's limit on the number of {@code @file} expansions. */
  static final int MAX_EXPANSIONS = 2000;

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
  public List<String> expand(List<String> argv) {
    List<String> out = new ArrayList<>(argv);
    int expansions = 0;
    for (int i = 1; i < out.size(); ) {
      String arg = out.get(i);
      if (!arg.startsWith("@")) {
        i++;
        continue;
      }
      Path file = workingDirectory.resolve(arg.substring(1));
      if (Files.isDirectory(file)) {
        throw new ResponseFileException("@-file refers to a directory");
      }
      String text;
      try {
        text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
      } catch (IOException | SecurityException e) {
        i++; // unreadable: kept verbatim, exactly like expandargv
        continue;
      }
      if (++expansions > MAX_EXPANSIONS) {
        throw new ResponseFileException("too many @-files encountered");
      }
      out.remove(i);
      out.addAll(i, ArgvSyntax.split(text));
    }
    return List.copyOf(out);
  }

  /** An {@code expandargv} error; GCC prints it as {@code <prog>: error: <message>}, exit 1. */
  public static final class ResponseFileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ResponseFileException(String message) {
      super(message);
    }
  }
}
