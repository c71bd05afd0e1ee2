package org.offlink.cli.streamer;

import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/** Shell-style section-name patterns ({@code *} and {@code ?}), e.g. {@code .gnu.offload_lto_*}. */
final class SectionPattern {
  private SectionPattern() {}

  /** A predicate matching any of {@code globs}. */
  static Predicate<String> anyOf(List<String> globs) {
    Predicate<String> p = name -> false;
    for (String glob : globs) {
      Pattern re = Pattern.compile(toRegex(glob));
      p = p.or(name -> re.matcher(name).matches());
    }
    return p;
  }

  static String toRegex(String glob) {
    StringBuilder sb = new StringBuilder();
    for (char c : glob.toCharArray()) {
      switch (c) {
        case '*' -> sb.append(".*");
        case '?' -> sb.append('.');
        default -> sb.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return sb.toString();
  }
}
