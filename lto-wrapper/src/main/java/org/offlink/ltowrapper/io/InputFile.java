package org.offlink.ltowrapper.io;

import java.nio.file.Path;
import java.util.Objects;
import org.offlink.streamer.io.WorkingDirectory;

/**
 * An input as lto-wrapper names it: the spelling given on the command line or in the offload list,
 * the file, and the byte offset of an archive member ({@code libx.a@0x53c}; 0 for a plain file).
 *
 * @param spelling the original text, passed on verbatim to children
 * @param file the file without the {@code @offset} suffix
 * @param offset where the object starts in the file
 */
public record InputFile(String spelling, Path file, long offset) {
  /** Checks the fields. */
  public InputFile {
    Objects.requireNonNull(spelling, "spelling");
    Objects.requireNonNull(file, "file");
    if (offset < 0) {
      throw new IllegalArgumentException("negative offset " + offset + " in " + spelling);
    }
  }

  /**
   * Splits a trailing {@code @<number>} off {@code spelling} the way GCC does ({@code sscanf "%li"}
   * of the text after the last {@code @}, not at position 0, consuming it completely: decimal,
   * {@code 0x} hex or leading-0 octal); relative names resolve against {@code dir}.
   */
  public static InputFile parse(String spelling, Path dir) {
    int at = spelling.lastIndexOf('@');
    if (at > 0) {
      Long offset = parseCLong(spelling.substring(at + 1));
      if (offset != null) {
        return new InputFile(
            spelling, WorkingDirectory.resolve(dir, spelling.substring(0, at)), offset);
      }
    }
    return new InputFile(spelling, WorkingDirectory.resolve(dir, spelling), 0);
  }

  private static Long parseCLong(String s) {
    String digits = s;
    boolean negative = false;
    if (digits.startsWith("-") || digits.startsWith("+")) {
      negative = digits.startsWith("-");
      digits = digits.substring(1);
    }
    int radix = 10;
    if (digits.length() > 2 && (digits.startsWith("0x") || digits.startsWith("0X"))) {
      radix = 16;
      digits = digits.substring(2);
    } else if (digits.length() > 1 && digits.startsWith("0")) {
      radix = 8;
      digits = digits.substring(1);
    }
    final int base = radix;
    if (digits.isEmpty() || !digits.chars().allMatch(c -> Character.digit(c, base) >= 0)) {
      return null;
    }
    try {
      long v = Long.parseLong(digits, radix);
      return negative || v < 0 ? null : v;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
