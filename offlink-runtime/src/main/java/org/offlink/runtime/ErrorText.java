package org.offlink.runtime;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one-line text of a failure for {@code <tool>: error: <text>}: what went wrong and the file it
 * concerns, never a Java class name. The JDK's own phrasings are translated ({@code Cannot run
 * program "x": error=2, No such file or directory} becomes {@code cannot run 'x': no such file or
 * directory}); an exception without a message is an internal error.
 */
public final class ErrorText {
  private static final Pattern CANNOT_RUN =
      Pattern.compile(
          "Cannot run program \"(.*?)\"(?: \\(in directory \".*?\"\\))?: error=\\d+, (.*)",
          Pattern.DOTALL);

  private ErrorText() {}

  /** The text for {@code e}. */
  public static String of(Throwable e) {
    return oneLine(raw(e));
  }

  private static String raw(Throwable e) {
    if (e instanceof NoSuchFileException n && n.getFile() != null && n.getReason() == null) {
      return n.getFile() + ": " + FileKinds.NO_SUCH_FILE;
    }
    if (e instanceof AccessDeniedException a && a.getFile() != null && a.getReason() == null) {
      return a.getFile() + ": permission denied";
    }
    if (e instanceof FileSystemException f && f.getFile() != null) {
      return f.getFile() + ": " + lowerFirst(IoReasons.reason(f));
    }
    if (e instanceof OutOfMemoryError) {
      return "out of memory (the input needs more than the JVM's heap)";
    }
    String message = e.getMessage();
    if (message == null || message.isBlank()) {
      return "internal error (set OFFLINK_DEBUG=1 for details)";
    }
    Matcher m = CANNOT_RUN.matcher(message);
    if (m.matches()) {
      return "cannot run '" + m.group(1) + "': " + lowerFirst(m.group(2));
    }
    return message;
  }

  private static String lowerFirst(String s) {
    return s.isEmpty() || s.length() > 1 && Character.isUpperCase(s.charAt(1))
        ? s
        : Character.toLowerCase(s.charAt(0)) + s.substring(1);
  }

  private static String oneLine(String s) {
    return s.replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ');
  }
}
