package org.offlink.streamer;

/**
 * offlink's version as every tool prints it: the root pom's {@code <version>}, compiled in ({@link
 * PomVersion}, generated at build time), the one place it is written. A {@code -SNAPSHOT} build
 * prints the release it leads up to ({@code 0.1.0}).
 */
public final class OfflinkVersion {
  private static final String NUMBER = number(PomVersion.VALUE);

  private OfflinkVersion() {}

  /** The version number, e.g. {@code 0.1.0}. */
  public static String number() {
    return NUMBER;
  }

  /** The root pom's version as it is, {@code -SNAPSHOT} included (e.g. to tell builds apart). */
  public static String pomVersion() {
    return PomVersion.VALUE;
  }

  /** {@code pomVersion} as printed: without {@code -SNAPSHOT}. */
  static String number(String pomVersion) {
    if (pomVersion.isEmpty() || pomVersion.startsWith("${")) {
      throw new IllegalStateException("the version source was not filtered: " + pomVersion);
    }
    return pomVersion.endsWith("-SNAPSHOT")
        ? pomVersion.substring(0, pomVersion.length() - "-SNAPSHOT".length())
        : pomVersion;
  }
}
