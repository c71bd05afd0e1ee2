package org.offlink.cli.replay;

/**
 * Text from a bundle made safe for one line of a terminal: line breaks become spaces and every
 * other control character (escape sequences included, which could rewrite what the terminal shows)
 * becomes {@code ?}. Values quoted in messages are also cut to a bounded length.
 */
public final class OneLine {
  /** The longest value quoted in a message. */
  static final int MAX_QUOTED = 160;

  private OneLine() {}

  /** {@code s} without line breaks and control characters. */
  public static String of(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\n' || c == '\r') {
        sb.append(' ');
      } else if (c == '\t' || !Character.isISOControl(c)) {
        sb.append(c);
      } else {
        sb.append('?');
      }
    }
    return sb.toString();
  }

  /** {@code s} in single quotes for a message, made safe and cut at {@value #MAX_QUOTED}. */
  static String quoted(String s) {
    String safe = of(s);
    if (safe.length() > MAX_QUOTED) {
      safe = safe.substring(0, MAX_QUOTED) + "...";
    }
    return "'" + safe + "'";
  }
}
