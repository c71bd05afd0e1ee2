package org.offlink.ltowrapper;

import java.util.ArrayList;
import java.util.List;

/** Test stand-in for section-streamer's COLLECT_GCC_OPTIONS parser: quoted words only. */
final class TestQuoting {
  private TestQuoting() {}

  static List<String> parse(String text) {
    List<String> words = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      if (text.charAt(i) != '\'') {
        i++;
        continue;
      }
      StringBuilder w = new StringBuilder();
      while (true) {
        int end = text.indexOf('\'', i + 1);
        if (end < 0) {
          throw new IllegalArgumentException("unterminated quote");
        }
        w.append(text, i + 1, end);
        i = end + 1;
        if (text.startsWith("\\''", i)) {
          w.append('\'');
          i += 2; // continue inside the next quoted run
          continue;
        }
        break;
      }
      words.add(w.toString());
    }
    return words;
  }
}
