package org.offlink.ltowrapper.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds a host's login in the text of a netrc file, as curl and Bazel read it: whitespace-separated
 * tokens; {@code machine <host>} or {@code default} starts an entry, {@code login <u>} and {@code
 * password <p>} fill it, {@code account <a>} is skipped, {@code macdef <name>} skips to the next
 * empty line. The first {@code machine} entry naming the host wins, else the {@code default} entry.
 * An entry without both a login and a password gives nothing. Quoted tokens are not supported.
 */
final class NetrcReader {
  private NetrcReader() {}

  /** The login for {@code host} in {@code text}, if any. */
  static Optional<NetrcEntry> find(String text, String host) {
    List<String> tokens = tokens(text);
    Optional<NetrcEntry> fallback = Optional.empty();
    int i = 0;
    while (i < tokens.size()) {
      String token = tokens.get(i);
      if (!isEntryStart(token)) {
        i++; // stray token: skip it, as curl does
        continue;
      }
      boolean isDefault = token.equals("default");
      boolean named =
          !isDefault && i + 1 < tokens.size() && tokens.get(i + 1).equalsIgnoreCase(host);
      i += isDefault ? 1 : 2;
      String login = null;
      String password = null;
      for (; i + 1 < tokens.size() && !isEntryStart(tokens.get(i)); i += 2) {
        login = tokens.get(i).equals("login") ? tokens.get(i + 1) : login;
        password = tokens.get(i).equals("password") ? tokens.get(i + 1) : password;
      }
      Optional<NetrcEntry> entry =
          login == null || password == null
              ? Optional.empty()
              : Optional.of(new NetrcEntry(login, password));
      if (named && entry.isPresent()) {
        return entry;
      }
      fallback = isDefault && fallback.isEmpty() ? entry : fallback;
    }
    return fallback;
  }

  private static boolean isEntryStart(String token) {
    return token.equals("machine") || token.equals("default");
  }

  /** The tokens, with macdef bodies (up to an empty line) left out. */
  private static List<String> tokens(String text) {
    List<String> tokens = new ArrayList<>();
    boolean inMacro = false;
    for (String line : text.split("\r?\n", -1)) {
      if (inMacro) {
        inMacro = !line.isBlank();
        continue;
      }
      for (String t : line.trim().split("\\s+")) {
        if (t.isEmpty()) {
          continue;
        }
        if (t.equals("macdef")) {
          inMacro = true;
          break;
        }
        tokens.add(t);
      }
    }
    return tokens;
  }
}
