package org.offlink.ltowrapper.cache;

import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.offlink.ltowrapper.secrets.Credentials;

/**
 * Where and how to reach a Bazel HTTP remote cache.
 *
 * <p>From the environment: {@code OFFLINK_REMOTE_CACHE=http(s)://host[:port]/prefix} (the base URL;
 * {@code ac/} and {@code cas/} go below it), {@code OFFLINK_REMOTE_CACHE_TIMEOUT=<seconds>} (the
 * limit on one look-up or upload, an entry and its blobs together, default 10; the connect limit is
 * the smaller of it and 2 s), the credentials {@link RemoteCacheCredentials} finds, and the key of
 * authenticated entries ({@link EntrySigner}). Credentials never come from the URL (or argv): a URL
 * with user information is rejected.
 *
 * @param base the base URL, without a trailing slash
 * @param readOnly get only; put does nothing
 * @param authorization the {@code Authorization} header value, if any (never printed)
 * @param connectTimeout the limit on opening a connection
 * @param requestTimeout the limit on one look-up or upload (an entry and its blobs), from sending
 *     the first request to the last byte of the last answer
 * @param signer signs and checks entries with a key writers and readers share, if configured
 */
public record RemoteCacheSettings(
    URI base,
    boolean readOnly,
    Optional<String> authorization,
    Duration connectTimeout,
    Duration requestTimeout,
    Optional<EntrySigner> signer) {
  /** The variable naming the base URL. */
  public static final String URL_VARIABLE = "OFFLINK_REMOTE_CACHE";

  /** The variable overriding the request timeout, in seconds. */
  public static final String TIMEOUT_VARIABLE = "OFFLINK_REMOTE_CACHE_TIMEOUT";

  static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(2);
  static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

  /** Settings without authenticated entries. */
  public RemoteCacheSettings(
      URI base,
      boolean readOnly,
      Optional<String> authorization,
      Duration connectTimeout,
      Duration requestTimeout) {
    this(base, readOnly, authorization, connectTimeout, requestTimeout, Optional.empty());
  }

  /** Checks the fields. */
  public RemoteCacheSettings {
    Objects.requireNonNull(base, "base");
    Objects.requireNonNull(authorization, "authorization");
    Objects.requireNonNull(signer, "signer");
    requirePositive(connectTimeout, "connectTimeout");
    requirePositive(requestTimeout, "requestTimeout");
    if (base.getRawUserInfo() != null) {
      throw new IllegalArgumentException("the remote cache URL must not hold credentials");
    }
  }

  /**
   * The settings the environment asks for, or empty when {@code OFFLINK_REMOTE_CACHE} is unset or
   * empty.
   *
   * @throws IllegalArgumentException (one line, naming the variable) when a variable is malformed
   *     or a credentials file named cannot be read
   */
  public static Optional<RemoteCacheSettings> fromEnvironment(
      Map<String, String> env, boolean readOnly) {
    String url = env.getOrDefault(URL_VARIABLE, "").trim();
    if (url.isEmpty()) {
      return Optional.empty();
    }
    URI base = parseBase(url);
    Duration request = timeout(env.get(TIMEOUT_VARIABLE));
    Duration connect =
        request.compareTo(DEFAULT_CONNECT_TIMEOUT) < 0 ? request : DEFAULT_CONNECT_TIMEOUT;
    Optional<String> authorization = RemoteCacheCredentials.authorization(env, base.getHost());
    Optional<EntrySigner> signer = EntrySigner.fromEnvironment(env);
    return Optional.of(
        new RemoteCacheSettings(base, readOnly, authorization, connect, request, signer));
  }

  /** The base URL for messages (it holds no credentials). */
  public String displayUrl() {
    return base.toString();
  }

  /** Never shows the authorization value. */
  @Override
  public String toString() {
    return "RemoteCacheSettings[base="
        + base
        + ", readOnly="
        + readOnly
        + ", authorization="
        + (authorization.isPresent() ? "(set)" : "(none)")
        + ", connectTimeout="
        + connectTimeout
        + ", requestTimeout="
        + requestTimeout
        + ", signed="
        + signer.isPresent()
        + "]";
  }

  private static URI parseBase(String url) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw badUrl(url);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https"))
        || uri.getHost() == null
        || uri.getRawQuery() != null
        || uri.getRawFragment() != null) {
      throw badUrl(url);
    }
    if (uri.getRawUserInfo() != null) {
      throw new IllegalArgumentException(
          URL_VARIABLE
              + ": expected a URL without credentials (put them in the file named by "
              + RemoteCacheCredentials.FILE_VARIABLE
              + " or in netrc), found a URL with user information");
    }
    String path = uri.getRawPath() == null ? "" : uri.getRawPath().replaceAll("/+$", "");
    return URI.create(scheme + "://" + uri.getRawAuthority() + path);
  }

  private static IllegalArgumentException badUrl(String url) {
    // Mask anything that looks like user information before echoing the value.
    String shown = Credentials.masked(url);
    return new IllegalArgumentException(
        URL_VARIABLE
            + ": expected an http:// or https:// URL (http(s)://host[:port]/prefix), found '"
            + shown
            + "'");
  }

  private static Duration timeout(String value) {
    if (value == null || value.isBlank()) {
      return DEFAULT_REQUEST_TIMEOUT;
    }
    try {
      BigDecimal seconds = new BigDecimal(value.trim());
      long millis = seconds.movePointRight(3).longValueExact();
      if (millis > 0) {
        return Duration.ofMillis(millis);
      }
    } catch (NumberFormatException | ArithmeticException e) {
      // falls through to the message
    }
    throw new IllegalArgumentException(
        TIMEOUT_VARIABLE + ": expected a positive number of seconds, found '" + value + "'");
  }

  private static void requirePositive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, not " + d);
    }
  }
}
