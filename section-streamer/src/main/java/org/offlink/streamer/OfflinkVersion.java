package org.offlink.streamer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * offlink's version as every tool prints it, read from {@code offlink-version.properties}, which
 * Maven's resource filtering fills from the root pom's {@code <version>}: the one place it is
 * written. A {@code -SNAPSHOT} build prints the release it leads up to ({@code 0.1.0}).
 */
public final class OfflinkVersion {
  private static final String NUMBER = load();

  private OfflinkVersion() {}

  /** The version number, e.g. {@code 0.1.0}. */
  public static String number() {
    return NUMBER;
  }

  private static String load() {
    Properties properties = new Properties();
    try (InputStream in = OfflinkVersion.class.getResourceAsStream("offlink-version.properties")) {
      if (in == null) {
        throw new IllegalStateException("offlink-version.properties is missing from the jar");
      }
      properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String version = properties.getProperty("version", "");
    if (version.isEmpty() || version.startsWith("${")) {
      throw new IllegalStateException("offlink-version.properties was not filtered: " + version);
    }
    return version.endsWith("-SNAPSHOT")
        ? version.substring(0, version.length() - "-SNAPSHOT".length())
        : version;
  }
}
