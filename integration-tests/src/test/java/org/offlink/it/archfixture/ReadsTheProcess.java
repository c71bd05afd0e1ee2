package org.offlink.it.archfixture;

import java.nio.file.Path;

/** What library code must not do, for {@code ArchitectureTest} to catch. */
public final class ReadsTheProcess {
  private ReadsTheProcess() {}

  /** Reads the environment. */
  public static String home() {
    return System.getenv("HOME");
  }

  /** Reads the JVM's working folder. */
  public static Path folder() {
    return Path.of("x").toAbsolutePath();
  }

  /** Reads the JVM's working folder by name. */
  public static String userDir() {
    return System.getProperty("user.dir");
  }

  /** Ends the JVM. */
  public static void quit() {
    Runtime.getRuntime().halt(1);
  }
}
