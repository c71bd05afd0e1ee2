package org.offlink.bridge.gcn;

import java.util.ArrayList;
import java.util.List;

/**
 * The subset of C {@code sscanf} that GCC 12's gcn {@code process_asm} uses, so lines match exactly
 * as they do there: a whitespace directive skips any amount of whitespace (also none), {@code %d}
 * and {@code %u} skip whitespace and read a signed decimal, {@code %ms}/{@code %s} skip whitespace
 * and read a non-empty non-space word, {@code %c} reads one character, anything else must match
 * literally. {@link #scan} returns the converted values; {@link #count} sscanf's return value (-1
 * when input ended before the first conversion).
 */
final class Scanf {
  private Scanf() {}

  /** The result: the converted values in order and sscanf's return value. */
  record Result(List<String> values, int count) {}

  static Result scan(String input, String format) {
    List<String> values = new ArrayList<>();
    int i = 0;
    int f = 0;
    boolean inputFailure = false;
    while (f < format.length()) {
      char fc = format.charAt(f);
      if (isSpace(fc)) {
        i = skip(input, i);
        f++;
        continue;
      }
      if (fc != '%') {
        if (i >= input.length()) {
          inputFailure = true;
          break;
        }
        if (input.charAt(i) != fc) {
          break;
        }
        i++;
        f++;
        continue;
      }
      char conv = format.charAt(f + 1);
      if (conv == 'm') {
        conv = format.charAt(f + 2);
        f++;
      }
      f += 2;
      if (conv == 'c') {
        if (i >= input.length()) {
          inputFailure = true;
          break;
        }
        values.add(String.valueOf(input.charAt(i++)));
        continue;
      }
      i = skip(input, i);
      if (i >= input.length()) {
        inputFailure = true;
        break;
      }
      int start = i;
      if (conv == 's') {
        while (i < input.length() && !isSpace(input.charAt(i))) {
          i++;
        }
      } else {
        if (input.charAt(i) == '-' || input.charAt(i) == '+') {
          i++;
        }
        int digits = i;
        while (i < input.length() && Character.isDigit(input.charAt(i))) {
          i++;
        }
        if (i == digits) {
          break;
        }
      }
      values.add(input.substring(start, i));
    }
    int count = values.isEmpty() && inputFailure ? -1 : values.size();
    return new Result(values, count);
  }

  /** sscanf's return value. */
  static int count(String input, String format) {
    return scan(input, format).count();
  }

  private static int skip(String s, int i) {
    while (i < s.length() && isSpace(s.charAt(i))) {
      i++;
    }
    return i;
  }

  private static boolean isSpace(char c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
  }
}
