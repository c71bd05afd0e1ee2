package org.offlink.runtime;

/**
 * The facts of the running JVM that offlink reads from its system properties, and the only class
 * below the entry points that reads them: none of these differs between two links in one JVM. The
 * working folder ({@code user.dir}) is deliberately absent: a link's folder is its {@link
 * LinkContext}'s.
 */
public final class JvmProperties {
  private JvmProperties() {}

  /** {@code sun.jnu.encoding}: the charset the JVM decodes argv, the environment and paths with. */
  public static String nativeEncoding() {
    return System.getProperty("sun.jnu.encoding");
  }

  /** {@code java.home}. */
  public static String javaHome() {
    return System.getProperty("java.home", "");
  }

  /** {@code java.version}. */
  public static String javaVersion() {
    return System.getProperty("java.version", "");
  }

  /** {@code java.class.path}: the jars this offlink runs from. */
  public static String classPath() {
    return System.getProperty("java.class.path", "");
  }

  /**
   * Whether {@code java.util.logging} is configured ({@code java.util.logging.config.file} or
   * {@code .class}, e.g. through {@code JAVA_TOOL_OPTIONS}).
   */
  public static boolean loggingConfigured() {
    return System.getProperty("java.util.logging.config.file") != null
        || System.getProperty("java.util.logging.config.class") != null;
  }
}
