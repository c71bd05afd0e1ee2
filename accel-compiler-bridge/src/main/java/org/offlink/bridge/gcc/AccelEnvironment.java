package org.offlink.bridge.gcc;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * GCC 12 mkoffload's environment dance around the accel compiler (reference §3.3): {@code
 * GCC_EXEC_PREFIX}, {@code COMPILER_PATH} and {@code LIBRARY_PATH} are unset so the accel driver
 * computes its own paths, and afterwards put back as {@code NAME=<old value>}, so a variable that
 * was unset comes back set to the empty string; with {@code -v} each restoration is printed.
 */
public final class AccelEnvironment {
  /** The variables unset for the accel compiler, in GCC's restore order. */
  public static final List<String> HIDDEN =
      List.of("GCC_EXEC_PREFIX", "COMPILER_PATH", "LIBRARY_PATH");

  private AccelEnvironment() {}

  /** The environment the accel compiler runs with. */
  public static Map<String, String> forAccelCompiler(Map<String, String> environment) {
    Map<String, String> env = new HashMap<>(environment);
    HIDDEN.forEach(env::remove);
    return env;
  }

  /**
   * The environment after mkoffload's restoration, printing {@code NAME=value} lines to {@code err}
   * when {@code verbose}, as GCC's {@code xputenv} does.
   */
  public static Map<String, String> restored(
      Map<String, String> original, boolean verbose, PrintStream err) {
    Map<String, String> env = new HashMap<>(original);
    for (String name : HIDDEN) {
      String value = original.getOrDefault(name, "");
      env.put(name, value);
      if (verbose) {
        err.println(name + "=" + value);
      }
    }
    return env;
  }
}
