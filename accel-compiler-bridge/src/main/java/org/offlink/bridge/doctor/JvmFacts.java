package org.offlink.bridge.doctor;

import java.lang.management.ManagementFactory;
import java.util.Objects;
import org.offlink.runtime.JvmProperties;

/**
 * The JVM running offlink: its home, version, and the start-up cache the launcher handed it ({@code
 * -XX:AOTCache=} or {@code -XX:SharedArchiveFile=}), or "" when none.
 */
public record JvmFacts(String javaHome, String javaVersion, String startupCache) {
  /** Checks the fields. */
  public JvmFacts {
    Objects.requireNonNull(javaHome, "javaHome");
    Objects.requireNonNull(javaVersion, "javaVersion");
    Objects.requireNonNull(startupCache, "startupCache");
  }

  /** The facts of this JVM; to be called from {@code main} only. */
  public static JvmFacts ofRunningJvm() {
    String cache = "";
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("-XX:AOTCache=") || arg.startsWith("-XX:SharedArchiveFile=")) {
        cache = arg.substring(arg.indexOf('=') + 1);
      }
    }
    return new JvmFacts(JvmProperties.javaHome(), JvmProperties.javaVersion(), cache);
  }
}
