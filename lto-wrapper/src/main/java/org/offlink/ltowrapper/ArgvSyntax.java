package org.offlink.ltowrapper;

import java.util.ArrayList;
import java.util.List;

/**
 * libiberty's argv text rules, which GCC uses for response files and for {@code -foffload-options}
 * values: {@link #split} is {@code buildargv}, {@link #write} is {@code writeargv}. Splitting
 * honours whitespace, single and double quotes and backslash escapes (a backslash escapes the next
 * character even inside quotes, as in libiberty).
 */
public final class ArgvSyntax {
  private ArgvSyntax() {}

  /** Splits {@code text} into words; empty or all-blank text yields no words. */
  public static List<String> split(String text) {
    List<String> words = new ArrayList<>();
    int i = 0;
    int n = text.length();
    while (true) {
      while (i < n && isSpace(text.charAt(i))) {
        i++;
      }
      if (i >= n) {
        return words;
      }
      StringBuilder word = new StringBuilder();
      boolean squote = false;
      boolean dquote = false;
      boolean escaped = false;
      for (; i < n; i++) {
        char c = text.charAt(i);
        if (isSpace(c) && !squote && !dquote && !escaped) {
          break;
        }
        if (escaped) {
          escaped = false;
          word.append(c);
        } else if (c == '\\') {
          escaped = true;
        } else if (squote) {
          squote = c != '\'';
          appendUnless(word, c, '\'');
        } else if (dquote) {
          dquote = c != '"';
          appendUnless(word, c, '"');
        } else if (c == '\'') {
          squote = true;
        } else if (c == '"') {
          dquote = true;
        } else {
          word.append(c);
        }
      }
      words.add(word.toString());
    }
  }

  private static void appendUnless(StringBuilder word, char c, char quote) {
    if (c != quote) {
      word.append(c);
    }
  }

  /**
   * Writes {@code args} one per line, escaping whitespace, backslash and both quotes with a
   * backslash; an empty argument becomes {@code ""}.
   */
  public static String write(List<String> args) {
    StringBuilder out = new StringBuilder();
    for (String arg : args) {
      if (arg.isEmpty()) {
        out.append("\"\"");
      }
      for (int i = 0; i < arg.length(); i++) {
        char c = arg.charAt(i);
        if (isSpace(c) || c == '\\' || c == '\'' || c == '"') {
          out.append('\\');
        }
        out.append(c);
      }
      out.append('\n');
    }
    return out.toString();
  }

  /** C's {@code isspace} in the C locale. */
  static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0b;
  }
}
