package org.offlink.cli.replay;

/**
 * Bounds on JSON read from a bundle, checked before the parser runs: a size limit (a manifest or
 * report of any real link is a few megabytes at most) and a nesting limit (the manifest and the
 * report nest four levels; Gson recurses once per level, so a line of ten thousand brackets would
 * otherwise end in a stack overflow or an error message quoting the whole line). Parser errors are
 * reduced to one short line.
 */
final class JsonShape {
  /** The largest JSON file read from a bundle, in characters. */
  static final int MAX_CHARS = 32 << 20;

  /** The deepest nesting of objects and arrays accepted. */
  static final int MAX_DEPTH = 32;

  /** The longest parser message kept in a one-line error. */
  private static final int MAX_PROBLEM = 120;

  private JsonShape() {}

  /**
   * Checks the size and the nesting depth of {@code json} ({@code what} says what it should be).
   *
   * @throws IllegalArgumentException one line naming {@code name} when a bound is exceeded
   */
  static void check(String json, String name, String what) {
    if (json.length() > MAX_CHARS) {
      throw new IllegalArgumentException(
          name
              + ": expected "
              + what
              + " of at most "
              + (MAX_CHARS >> 20)
              + " MiB, found "
              + json.length()
              + " characters");
    }
    int depth = 0;
    boolean inString = false;
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if (c == '{' || c == '[') {
        if (++depth > MAX_DEPTH) {
          throw new IllegalArgumentException(
              name
                  + ": expected "
                  + what
                  + " (JSON nested at most "
                  + MAX_DEPTH
                  + " levels), found deeper nesting at offset "
                  + i);
        }
      } else if (c == '}' || c == ']') {
        depth--;
      }
    }
  }

  /**
   * What the parser found wrong, in a few words on one line: the innermost cause's message without
   * Java class names, cut at {@value #MAX_PROBLEM} characters.
   */
  static String problem(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String m = t.getMessage() == null ? "" : t.getMessage();
    if (t instanceof java.io.EOFException) {
      m = "a truncated document (" + m.replace("End of input", "end of input") + ")";
    } else if (t instanceof NumberFormatException) {
      m = "a malformed number (" + m + ")";
    }
    m = m.replaceAll("\\b(?:[a-z]+\\.)+[A-Z][A-Za-z]*(?:Exception|Error): ", "");
    m = OneLine.of(m);
    if (m.isEmpty()) {
      m = "malformed JSON";
    }
    return m.length() <= MAX_PROBLEM ? m : m.substring(0, MAX_PROBLEM) + "...";
  }
}
