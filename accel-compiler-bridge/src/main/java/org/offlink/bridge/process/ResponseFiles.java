package org.offlink.bridge.process;

import java.util.List;

/**
 * Response-file text exactly as libiberty's {@code writeargv} writes it for GCC's {@code
 * fork_execute}: one argument per line; whitespace, backslash and both quote characters each
 * preceded by a backslash; an empty argument written as {@code ""} so {@code expandargv} reads it
 * back as an empty word (observed {@code -dumpdir ""} in GCC 12's {@code .gcc_args}).
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
}
