package org.offlink.bridge.process;

import java.util.ArrayList;
import java.util.List;

/**
 * Response-file text exactly as libiberty's {@code writeargv} writes it for GCC's {@code
 * fork_execute}: one argument per line; whitespace, backslash and both quote characters each
 * preceded by a backslash; an empty argument written as {@code ""} so {@code expandargv} reads it
 * back as an empty word (observed {@code -dumpdir ""} in GCC 12's {@code .gcc_args}). {@link
 * #split} is the reading side, libiberty's {@code buildargv}, used for {@code @file} expansion and
 * {@code -foffload-options} values.
 */
public final class ResponseFiles {
  private ResponseFiles() {}

  /** The whole file text for {@code args} (argv[0] excluded by the caller). */
  public static String format(List<String> args) {
    StringBuilder sb = new StringBuilder();
    for (String arg : args) {
      sb.append(quote(arg)).append('\n');
    }
    return sb.toString();
  }

  /** One argument quoted the way {@code writeargv} does. */
  public static String quote(String arg) {
    if (arg.isEmpty()) {
      return "\"\"";
    }
    StringBuilder sb = new StringBuilder(arg.length() + 8);
    for (int i = 0; i < arg.length(); i++) {
      char c = arg.charAt(i);
      if (isCSpace(c) || c == '\\' || c == '\'' || c == '"') {
        sb.append('\\');
      }
      sb.append(c);
    }
    return sb.toString();
  }

  /** C {@code isspace} in the C locale: space, \t, \n, \v, \f, \r. */
  static boolean isCSpace(char c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
  }

  /**
   * Splits {@code text} into words like libiberty's {@code buildargv}: whitespace separates words,
   * single and double quotes group, and a backslash escapes the next character even inside quotes.
   * Empty or all-blank text yields no words.
   */
  public static List<String> split(String text) {
    List<String> words = new ArrayList<>();
    int i = 0;
    int n = text.length();
    while (true) {
      while (i < n && isCSpace(text.charAt(i))) {
        i++;
      }
      if (i >= n) {
        return words;
      }
      StringBuilder word = new StringBuilder();
      char quote = 0;
      boolean escaped = false;
      for (; i < n; i++) {
        char c = text.charAt(i);
        if (escaped) {
          escaped = false;
          word.append(c);
        } else if (c == '\\') {
          escaped = true;
        } else if (quote != 0) {
          if (c == quote) {
            quote = 0;
          } else {
            word.append(c);
          }
        } else if (isCSpace(c)) {
          break;
        } else if (c == '\'' || c == '"') {
          quote = c;
        } else {
          word.append(c);
        }
      }
      words.add(word.toString());
    }
  }
}
