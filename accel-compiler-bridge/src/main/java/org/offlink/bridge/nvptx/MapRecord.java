package org.offlink.bridge.nvptx;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.offlink.bridge.image.NvptxFunction;
import org.offlink.streamer.MalformedObjectException;

/**
 * The text of one {@code //:VAR_MAP} / {@code //:FUNC_MAP} record, which GCC 12 pastes verbatim
 * into a C initializer: a C string literal followed by up to three integer constants ({@code %#x}
 * as the nvptx backend prints them: {@code 0x20}, {@code 0}). Parsed here with C's rules.
 */
record MapRecord(String name, List<Integer> dims) {
  static MapRecord parse(String text, Path file, long offset) throws MalformedObjectException {
    int[] p = {skipSpace(text, 0)};
    String name = cString(text, p, file, offset);
    List<Integer> dims = new ArrayList<>();
    p[0] = skipSpace(text, p[0]);
    while (p[0] < text.length()) {
      if (text.charAt(p[0]) != ',') {
        throw bad(file, offset, "expected ',' after the name in '" + text + "'");
      }
      p[0] = skipSpace(text, p[0] + 1);
      int start = p[0];
      while (p[0] < text.length() && Character.isLetterOrDigit(text.charAt(p[0]))) {
        p[0]++;
      }
      dims.add(cInteger(text.substring(start, p[0]), file, offset, text));
      p[0] = skipSpace(text, p[0]);
    }
    return new MapRecord(name, List.copyOf(dims));
  }

  NvptxFunction toFunction(Path file, long offset) throws MalformedObjectException {
    if (dims.size() > 3) {
      throw bad(file, offset, "more than 3 launch dimensions for " + name);
    }
    int[] d = new int[3];
    for (int i = 0; i < dims.size(); i++) {
      d[i] = dims.get(i);
      if (d[i] < 0 || d[i] > 0xffff) {
        throw bad(file, offset, "launch dimension " + d[i] + " of " + name + " out of range");
      }
    }
    return new NvptxFunction(name, d[0], d[1], d[2]);
  }

  private static String cString(String text, int[] p, Path file, long offset)
      throws MalformedObjectException {
    if (p[0] >= text.length() || text.charAt(p[0]) != '"') {
      throw bad(file, offset, "expected a quoted name, found '" + text + "'");
    }
    StringBuilder sb = new StringBuilder();
    int i = p[0] + 1;
    while (i < text.length() && text.charAt(i) != '"') {
      char c = text.charAt(i++);
      if (c == '\\' && i < text.length()) {
        c = unescape(text.charAt(i++));
      }
      sb.append(c);
    }
    if (i >= text.length()) {
      throw bad(file, offset, "unterminated name in '" + text + "'");
    }
    p[0] = i + 1;
    return sb.toString();
  }

  private static char unescape(char c) {
    switch (c) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      default:
        return c;
    }
  }

  private static int cInteger(String s, Path file, long offset, String text)
      throws MalformedObjectException {
    try {
      if (s.startsWith("0x") || s.startsWith("0X")) {
        return Integer.parseInt(s.substring(2), 16);
      }
      if (s.length() > 1 && s.startsWith("0")) {
        return Integer.parseInt(s.substring(1), 8);
      }
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      throw bad(file, offset, "expected an integer constant, found '" + s + "' in '" + text + "'");
    }
  }

  private static int skipSpace(String s, int i) {
    while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
      i++;
    }
    return i;
  }

  private static MalformedObjectException bad(Path file, long offset, String detail) {
    return new MalformedObjectException(file, offset, detail);
  }
}
