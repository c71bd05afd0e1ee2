package org.offlink.bridge;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a command takes from its process: environment, working directory and the two streams.
 * Created once in {@code main}; libraries never read {@code System.getenv} or write to {@code
 * System.out} themselves. For lto-wrapper, {@code out} carries only its protocol (file names); all
 * human text goes to {@code err}.
 */
public record ToolContext(
    Map<String, String> environment, Path workingDirectory, PrintStream out, PrintStream err) {
  /** Copies the environment so the context stays immutable. */
  public ToolContext {
    environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(err, "err");
  }

  /**
   * Where the launcher keeps the caller's {@code LC_ALL} when it runs the JVM in {@code C.UTF-8}
   * (so that non-ASCII paths work under {@code LANG=C}); {@value #UNSET} when it was unset.
   */
  public static final String CALLER_LC_ALL = "OFFLINK_CALLER_LC_ALL";

  /**
   * Where the launcher keeps the caller's {@code LOCPATH} when it points the JVM at the tree's own
   * byte-transparent locale; {@value #UNSET} when it was unset.
   */
  public static final String CALLER_LOCPATH = "OFFLINK_CALLER_LOCPATH";

  /** The value of {@link #CALLER_LC_ALL} for an unset {@code LC_ALL}. */
  public static final String UNSET = "__unset__";

  /** The context of the running JVM; to be called from {@code main} only. */
  public static ToolContext ofSystem() {
    return new ToolContext(
        callerEnvironment(System.getenv()), Path.of("").toAbsolutePath(), System.out, System.err);
  }

  /**
   * {@code environment} as the caller had it: the launcher's {@code LC_ALL} override is undone, so
   * that every child (gcc, ld, the accel compilers) runs in the caller's locale, with its message
   * language and quote characters, exactly as under stock GCC.
   */
  public static Map<String, String> callerEnvironment(Map<String, String> environment) {
    if (!environment.containsKey(CALLER_LC_ALL) && !environment.containsKey(CALLER_LOCPATH)) {
      return environment;
    }
    Map<String, String> env = new java.util.HashMap<>(environment);
    restore(env, CALLER_LC_ALL, "LC_ALL");
    restore(env, CALLER_LOCPATH, "LOCPATH");
    return env;
  }

  private static void restore(Map<String, String> env, String savedIn, String name) {
    String saved = env.remove(savedIn);
    if (saved == null) {
      return;
    }
    if (saved.equals(UNSET)) {
      env.remove(name);
    } else {
      env.put(name, saved);
    }
  }

  /** The value of an environment variable, if set (an empty value counts as set). */
  public Optional<String> env(String name) {
    return Optional.ofNullable(environment.get(name));
  }

  /** A copy with a different environment, e.g. for a child run. */
  public ToolContext withEnvironment(Map<String, String> newEnvironment) {
    return new ToolContext(newEnvironment, workingDirectory, out, err);
  }
}
