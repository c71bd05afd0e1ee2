package org.offlink.ltowrapper.cache;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/** Keys, objects and clients for the remote-cache tests; everything derived from fixed inputs. */
final class RemoteCacheFixtures {
  private RemoteCacheFixtures() {}

  /** A key named by {@code seed}. */
  static CacheKey key(String seed) {
    try {
      return CacheKey.of(
          MessageDigest.getInstance("SHA-256").digest(seed.getBytes(StandardCharsets.UTF_8)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A deterministic stand-in for a wrapper object. */
  static byte[] object(int size) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = (byte) (i * 31 + 7);
    }
    return b;
  }

  /**
   * A client for {@code base} as lto-wrapper makes one: from the environment, with a one-second
   * timeout and no HOME (so no ~/.netrc) unless {@code env} says otherwise.
   */
  static BazelHttpCache client(
      URI base, Map<String, String> env, boolean readOnly, Consumer<String> warnings) {
    Map<String, String> all = new HashMap<>(env);
    all.put(RemoteCacheSettings.URL_VARIABLE, base.toString());
    all.putIfAbsent(RemoteCacheSettings.TIMEOUT_VARIABLE, "1");
    return new BazelHttpCache(
        RemoteCacheSettings.fromEnvironment(all, readOnly).orElseThrow(), warnings);
  }

  /** A port of 127.0.0.1 nothing listens on (just now). */
  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
