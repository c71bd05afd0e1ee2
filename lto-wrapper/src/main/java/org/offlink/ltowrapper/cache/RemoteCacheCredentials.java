package org.offlink.ltowrapper.cache;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.offlink.ltowrapper.secrets.Credentials;
import org.offlink.runtime.IoReasons;

/**
 * The {@code Authorization} header for a remote cache, never from the command line: from the file
 * named by {@code OFFLINK_REMOTE_CACHE_CREDENTIALS} (its first non-empty line: {@code
 * user:password} for HTTP Basic, or {@code Bearer <token>}), else from netrc ({@code $NETRC}, else
 * {@code $HOME/.netrc}; the host's {@code machine} entry or {@code default}) for HTTP Basic. No
 * message here ever holds a credential.
 */
final class RemoteCacheCredentials {
  /** The variable naming the credentials file. */
  static final String FILE_VARIABLE = "OFFLINK_REMOTE_CACHE_CREDENTIALS";

  private RemoteCacheCredentials() {}

  /**
   * The header value for {@code host}, or empty when none is configured.
   *
   * @throws IllegalArgumentException when the credentials file, or a netrc named by {@code NETRC},
   *     cannot be read, or the credentials file is not in either form
   */
  static Optional<String> authorization(Map<String, String> env, String host) {
    String file = env.getOrDefault(FILE_VARIABLE, "");
    if (!file.isEmpty()) {
      return Optional.of(fromFile(Path.of(file)));
    }
    return netrc(env)
        .flatMap(text -> NetrcReader.find(text, host))
        .map(e -> basic(e.login(), e.password()));
  }

  private static String fromFile(Path file) {
    String line =
        read(file, FILE_VARIABLE)
            .lines()
            .map(String::strip)
            .filter(l -> !l.isEmpty())
            .findFirst()
            .orElse("");
    if (line.regionMatches(true, 0, "Bearer ", 0, 7) && line.length() > 7) {
      return "Bearer " + line.substring(7).strip();
    }
    int colon = line.indexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException(
          FILE_VARIABLE
              + ": expected 'user:password' or 'Bearer <token>' in "
              + file
              + ", found neither");
    }
    return basic(line.substring(0, colon), line.substring(colon + 1));
  }

  /** The netrc text: $NETRC (which must be readable), else $HOME/.netrc when there is one. */
  private static Optional<String> netrc(Map<String, String> env) {
    String named = env.getOrDefault("NETRC", "");
    if (!named.isEmpty()) {
      return Optional.of(read(Path.of(named), "NETRC"));
    }
    String home = env.getOrDefault("HOME", "");
    Path file = home.isEmpty() ? null : Path.of(home, ".netrc");
    return file != null && Files.isReadable(file)
        ? Optional.of(read(file, "HOME"))
        : Optional.empty();
  }

  private static String basic(String user, String password) {
    byte[] pair = (user + ":" + password).getBytes(StandardCharsets.UTF_8);
    return "Basic " + Base64.getEncoder().encodeToString(pair);
  }

  private static String read(Path file, String variable) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      // The value may be a token put there by mistake: the message names the variable only.
      String shown = Credentials.masked(variable, file.toString());
      throw new IllegalArgumentException(
          variable + ": cannot read " + shown + " (" + IoReasons.reason(e) + ")");
    }
  }
}
