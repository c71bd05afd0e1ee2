package org.offlink.ltowrapper.secrets;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Masks credentials in text that offlink records or prints (link reports, bundle manifests and
 * reports, replay scripts, warnings), whatever form they were given in:
 *
 * <ul>
 *   <li>the user information and the query of any URL ({@code https://user:pass@host/p?token=x}
 *       becomes {@code https://***@host/p?***}), wherever it appears in a value ({@code MAKEFLAGS}
 *       carries {@code make VAR=URL} assignments), a password with {@code /} or {@code @} in it
 *       included: everything up to the last {@code @} of the URL's word is masked;
 *   <li>the whole value of a variable whose name says it holds a secret ({@code
 *       OFFLINK_REMOTE_CACHE_CREDENTIALS} may hold a token by mistake instead of a file name; any
 *       name with {@code TOKEN}, {@code PASSWORD}, {@code SECRET}, {@code CREDENTIAL}, {@code AUTH}
 *       or {@code NETRC}), also inside another value as {@code NAME=value}.
 * </ul>
 */
public final class Credentials {
  /** What a masked part becomes. */
  public static final String MASK = "***";

  private static final Set<String> SECRET_WORDS =
      Set.of("TOKEN", "PASSWORD", "PASSWD", "SECRET", "CREDENTIAL", "AUTH", "NETRC", "APIKEY");

  private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private Credentials() {}

  /** Whether the variable {@code name} holds a secret by its name. */
  public static boolean secretName(String name) {
    String n = name.toUpperCase(Locale.ROOT).replace("_", "");
    for (String w : SECRET_WORDS) {
      if (n.contains(w)) {
        return true;
      }
    }
    return false;
  }

  /** {@code value} of the variable {@code name} as it may be recorded. */
  public static String masked(String name, String value) {
    if (secretName(name) && !value.isEmpty()) {
      return MASK;
    }
    return masked(value);
  }

  /** {@code text} with every URL's user information and query, and secret assignments, masked. */
  public static String masked(String text) {
    StringBuilder sb = new StringBuilder(text.length());
    int i = 0;
    while (i < text.length()) {
      int end = wordEnd(text, i);
      sb.append(maskedWord(text.substring(i, end)));
      if (end < text.length()) {
        sb.append(text.charAt(end));
      }
      i = end + 1;
    }
    return sb.toString();
  }

  /** The end of the word starting at {@code from}: the next unescaped space, tab or newline. */
  private static int wordEnd(String text, int from) {
    int i = from;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '\\') {
        i += 2; // make and the shell escape a space in a value as '\ '
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\n') {
        return i;
      }
      i++;
    }
    return text.length();
  }

  private static String maskedWord(String word) {
    int eq = word.indexOf('=');
    if (eq > 0
        && VARIABLE.matcher(word.substring(0, eq)).matches()
        && secretName(word.substring(0, eq))
        && eq + 1 < word.length()) {
      return word.substring(0, eq + 1) + MASK;
    }
    int scheme = word.indexOf("://");
    if (scheme < 0) {
      return word;
    }
    int at = word.lastIndexOf('@');
    String head = word.substring(0, scheme + 3);
    String rest = at > scheme ? MASK + word.substring(at) : word.substring(scheme + 3);
    int query = rest.indexOf('?');
    if (query >= 0) {
      rest = rest.substring(0, query + 1) + MASK;
    }
    return head + rest;
  }
}
