package org.offlink.it;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * How the integration tests run offlink's links (issue 30): through the user's resident link
 * server, or each in a JVM of its own; failsafe runs the suite once per mode (system property
 * {@code offlink.it.mode}), so that every comparison with stock GCC holds in both.
 *
 * <p>A test names the JVM it wants in {@code OFFLINK_JAVA} as before. In server mode that JVM is
 * given as {@code JAVA_HOME} instead (OFFLINK_JAVA naming another JVM than the server's makes the
 * client link in a JVM of its own) and the servers live in one folder per suite run, with a short
 * idle time; in-process mode adds {@code --no-server} to {@code OFFLINK_FLAGS}.
 */
enum LinkMode {
  IN_PROCESS,
  SERVER;

  /** The mode of this run (in-process unless failsafe says {@code server}). */
  static LinkMode current() {
    return "server".equals(System.getProperty("offlink.it.mode")) ? SERVER : IN_PROCESS;
  }

  /** The suite's server folder (a host path). */
  static String serverFolder() {
    return System.getProperty(
        "offlink.it.serverDir", Path.of("target", "it-servers").toAbsolutePath().toString());
  }

  /** Adjusts {@code env}, an offlink run's environment, for the current mode. */
  static void apply(Map<String, String> env) {
    apply(env, serverFolder());
  }

  /** As {@link #apply(Map)}, with the servers in {@code folder} (as the run sees it). */
  static void apply(Map<String, String> env, String folder) {
    if (current() == IN_PROCESS) {
      env.merge("OFFLINK_FLAGS", "--no-server", (a, b) -> a + " " + b);
      return;
    }
    String java = env.remove("OFFLINK_JAVA");
    if (java != null && java.endsWith("/bin/java")) {
      env.put("JAVA_HOME", java.substring(0, java.length() - "/bin/java".length()));
    }
    env.put("OFFLINK_SERVER_DIR", folder);
    env.putIfAbsent("OFFLINK_SERVER_IDLE", "60");
  }

  /** A copy of {@code env} adjusted for the current mode. */
  static Map<String, String> applied(Map<String, String> env) {
    Map<String, String> copy = new HashMap<>(env);
    apply(copy);
    return copy;
  }
}
