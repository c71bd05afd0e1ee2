package org.offlink.cli.replay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Moves a recorded link into a scratch folder: a path that is, or lies under, one of the mapped
 * prefixes (the bundled files and the working directory go under the scratch root; offlink's own
 * libexec folder becomes the replaying tree's) is rewritten, whether it stands alone, after an
 * {@code =} ({@code -fresolution=F}) or before an archive offset ({@code lib.a@0x53c}). Relative
 * names need nothing: the working directory moves with them. Everything else is kept.
 */
final class PathRewriter {
  private final Map<String, String> prefixes;

  private PathRewriter(Map<String, String> prefixes) {
    this.prefixes = prefixes;
  }

  /** Longest prefix first, so a file inside the working directory wins over the directory. */
  static PathRewriter of(Map<String, String> mapping) {
    List<String> keys = new ArrayList<>(mapping.keySet());
    keys.removeIf(String::isEmpty);
    keys.sort(Comparator.comparingInt(String::length).reversed().thenComparing(k -> k));
    Map<String, String> ordered = new LinkedHashMap<>();
    for (String k : keys) {
      ordered.put(k, mapping.get(k));
    }
    return new PathRewriter(ordered);
  }

  /** {@code word} with a mapped path at its start or after its first {@code =} rewritten. */
  String word(String word) {
    String direct = at(word, 0);
    if (direct != null) {
      return direct;
    }
    int eq = word.indexOf('=');
    if (eq > 0) {
      String after = at(word, eq + 1);
      if (after != null) {
        return after;
      }
    }
    return word;
  }

  private String at(String word, int from) {
    for (Map.Entry<String, String> e : prefixes.entrySet()) {
      String key = e.getKey();
      if (word.startsWith(key, from) && boundary(word, from + key.length())) {
        return word.substring(0, from) + e.getValue() + word.substring(from + key.length());
      }
    }
    return null;
  }

  private static boolean boundary(String word, int end) {
    if (end == word.length()) {
      return true;
    }
    char c = word.charAt(end);
    return c == '/' || c == '@';
  }

  /** Each word of a {@code :}-separated path list rewritten. */
  String pathList(String list) {
    List<String> parts = new ArrayList<>();
    for (String p : list.split(":", -1)) {
      parts.add(word(p));
    }
    return String.join(":", parts);
  }

  /**
   * A resolution file ({@code -fresolution=}) rewritten: its object lines ({@code NAME NSYMS}, the
   * name possibly with {@code @0xOFFSET}) get their file's name rewritten by {@code name}; counts
   * and symbol lines stay.
   */
  static String resolution(String text, UnaryOperator<String> name) {
    StringBuilder sb = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      int space = line.lastIndexOf(' ');
      if (line.startsWith("/") && space > 0) {
        line = member(line.substring(0, space), name) + line.substring(space);
      }
      sb.append(line).append('\n');
    }
    return sb.substring(0, sb.length() - 1);
  }

  /**
   * An offload object list ({@code -foffload-objects=}): a count, then one name per line, each
   * file's name rewritten by {@code name}.
   */
  static String lines(String text, UnaryOperator<String> name) {
    StringBuilder sb = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      sb.append(member(line, name)).append('\n');
    }
    return sb.substring(0, sb.length() - 1);
  }

  /** {@code spelling} ({@code FILE} or an archive member {@code FILE@0xOFFSET}) renamed. */
  private static String member(String spelling, UnaryOperator<String> name) {
    int at = spelling.lastIndexOf("@0x");
    return at > 0
        ? name.apply(spelling.substring(0, at)) + spelling.substring(at)
        : name.apply(spelling);
  }
}
