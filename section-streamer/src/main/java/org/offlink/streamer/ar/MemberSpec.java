package org.offlink.streamer.ar;

import java.util.Objects;

/**
 * GCC's spelling of "an object file, possibly at an offset inside an archive", as the linker plugin
 * writes it into {@code -foffload-objects} lists and lto-wrapper's argv.
 *
 * <p>Format (lto-plugin's claim hook): {@code <file>@0x<offset>} with the offset in lowercase hex
 * without padding. For offsets of 4 GiB and more the plugin prints the high and low 32-bit words as
 * {@code "@0x%x%08x"}, which is the same text as the full 64-bit value in unpadded hex, so one rule
 * covers both. Offset 0 (a plain file, or a thin archive member opened directly) is written as the
 * bare path.
 *
 * <p>Parsing mirrors lto-wrapper: split at the <em>last</em> {@code '@'} (so a file name may
 * contain {@code '@'}), but only when that {@code '@'} is not the first character and the whole
 * rest is one C {@code %i} integer (decimal, {@code 0x} hex or leading-zero octal, optional sign
 * and leading white space). Anything else is a plain path with offset 0.
 *
 * @param file the file name, as given
 * @param offset byte offset of the object inside {@code file}; 0 for a whole file
 */
public record MemberSpec(String file, long offset) {

  /** Validates the fields. */
  public MemberSpec {
    Objects.requireNonNull(file, "file");
    if (offset < 0) {
      throw new IllegalArgumentException("negative object offset " + offset + " for " + file);
    }
  }

  /** A whole file at offset 0. */
  public static MemberSpec of(String file) {
    return new MemberSpec(file, 0);
  }

  /** Parses {@code file}, {@code file@0xHEX} or {@code file@DECIMAL} as lto-wrapper does. */
  public static MemberSpec parse(String spec) {
    int at = spec.lastIndexOf('@');
    if (at <= 0) {
      return of(spec);
    }
    Long value = CInteger.parse(spec.substring(at + 1));
    if (value == null) {
      return of(spec);
    }
    if (value < 0) {
      throw new IllegalArgumentException("negative object offset in '" + spec + "'");
    }
    return new MemberSpec(spec.substring(0, at), value);
  }

  /** Formats {@code file@0x<offset>} (bare {@code file} when the offset is 0), like lto-plugin. */
  public static String format(String file, long offset) {
    return new MemberSpec(file, offset).toString();
  }

  /** The GCC spelling. */
  @Override
  public String toString() {
    return offset == 0 ? file : file + "@0x" + Long.toHexString(offset);
  }

  /** C's {@code sscanf("%i")} with the requirement that it consumes the whole text. */
  private static final class CInteger {
    private CInteger() {}

    static Long parse(String s) {
      int i = 0;
      while (i < s.length() && isCSpace(s.charAt(i))) {
        i++;
      }
      boolean negative = false;
      if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
        negative = s.charAt(i) == '-';
        i++;
      }
      int radix = 10;
      if (s.startsWith("0x", i) || s.startsWith("0X", i)) {
        radix = 16;
        i += 2;
      } else if (s.startsWith("0", i) && i + 1 < s.length()) {
        radix = 8;
        i += 1;
      }
      String digits = s.substring(i);
      final int base = radix;
      if (digits.isEmpty()
          || !digits.chars().allMatch(c -> c < 0x80 && Character.digit(c, base) >= 0)) {
        return null;
      }
      try {
        long v = Long.parseLong(digits, base);
        return negative ? -v : v;
      } catch (NumberFormatException tooBig) {
        return null;
      }
    }

    private static boolean isCSpace(char c) {
      return c == ' ' || (c >= '\t' && c <= '\r');
    }
  }
}
