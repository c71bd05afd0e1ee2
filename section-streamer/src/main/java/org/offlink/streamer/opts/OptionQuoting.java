package org.offlink.streamer.opts;

import java.util.ArrayList;
import java.util.List;

/**
 * GCC's COLLECT_GCC_OPTIONS quoting, used for the environment variable and for {@code .opts}
 * sections.
 *
 * <p>Writing (the driver and lto-opts): every option in single quotes, a {@code '} inside written
 * as {@code '\''}, options separated by one space.
 *
 * <p>Reading mirrors opts-common's decoder exactly, including what it tolerates:
 *
 * <ul>
 *   <li>only quoted words are extracted; any character outside quotes (including unquoted words and
 *       backslashes) is skipped;
 *   <li>inside quotes the four characters {@code '\''} stand for one {@code '}; that check comes
 *       before the closing-quote check, and no other escape exists ({@code \} is literal);
 *   <li>a closing quote ends the word even when the next character opens another word, so {@code
 *       'a''b'} is two words;
 *   <li>an unterminated quote fails with {@code malformed 'COLLECT_GCC_OPTIONS'}.
 * </ul>
 */
public final class OptionQuoting {
  private static final String ESCAPED_QUOTE = "'\\''";

  private OptionQuoting() {}

  /** Decodes {@code text} into its options. */
  public static List<String> parse(String text) {
    List<String> options = new ArrayList<>();
    int j = 0;
    while (j < text.length()) {
      if (text.charAt(j) != '\'') {
        j++;
        continue;
      }
      int open = j++;
      StringBuilder word = new StringBuilder();
      while (true) {
        if (j >= text.length() || text.charAt(j) == '\0') {
          throw new MalformedOptionsException(open);
        } else if (text.startsWith(ESCAPED_QUOTE, j)) {
          word.append('\'');
          j += ESCAPED_QUOTE.length();
        } else if (text.charAt(j) == '\'') {
          break;
        } else {
          word.append(text.charAt(j++));
        }
      }
      options.add(word.toString());
      j++;
    }
    return List.copyOf(options);
  }

  /** Encodes {@code options}; the result parses back to the same list. */
  public static String format(List<String> options) {
    StringBuilder sb = new StringBuilder();
    for (String option : options) {
      if (option.indexOf('\0') >= 0) {
        throw new IllegalArgumentException("option contains NUL: " + option.replace('\0', '?'));
      }
      if (sb.length() > 0) {
        sb.append(' ');
      }
      sb.append('\'').append(option.replace("'", ESCAPED_QUOTE)).append('\'');
    }
    return sb.toString();
  }
}
