package org.offlink.cli;

import java.util.List;
import java.util.Map;

/**
 * A minimal JSON writer for the CLIs (section-streamer and offlink)'s {@code --json} output: maps
 * (insertion order kept), lists, strings, numbers, booleans and null. Deterministic and
 * dependency-free.
 */
public final class Json {
  private Json() {}

  /** Renders {@code value} as indented JSON. */
  public static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(sb, value, 0);
    return sb.append('\n').toString();
  }

  private static void write(StringBuilder sb, Object value, int indent) {
    if (value == null) {
      sb.append("null");
    } else if (value instanceof String s) {
      string(sb, s);
    } else if (value instanceof Number || value instanceof Boolean) {
      sb.append(value);
    } else if (value instanceof Map<?, ?> map) {
      object(sb, map, indent);
    } else if (value instanceof List<?> list) {
      array(sb, list, indent);
    } else {
      string(sb, value.toString());
    }
  }

  private static void object(StringBuilder sb, Map<?, ?> map, int indent) {
    if (map.isEmpty()) {
      sb.append("{}");
      return;
    }
    sb.append("{\n");
    int i = 0;
    for (Map.Entry<?, ?> e : map.entrySet()) {
      pad(sb, indent + 1);
      string(sb, String.valueOf(e.getKey()));
      sb.append(": ");
      write(sb, e.getValue(), indent + 1);
      sb.append(++i < map.size() ? ",\n" : "\n");
    }
    pad(sb, indent);
    sb.append('}');
  }

  private static void array(StringBuilder sb, List<?> list, int indent) {
    if (list.isEmpty()) {
      sb.append("[]");
      return;
    }
    sb.append("[\n");
    for (int i = 0; i < list.size(); i++) {
      pad(sb, indent + 1);
      write(sb, list.get(i), indent + 1);
      sb.append(i + 1 < list.size() ? ",\n" : "\n");
    }
    pad(sb, indent);
    sb.append(']');
  }

  private static void pad(StringBuilder sb, int indent) {
    sb.append("  ".repeat(indent));
  }

  private static void string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
