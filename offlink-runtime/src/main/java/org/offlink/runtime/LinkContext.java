package org.offlink.runtime;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything one link (one run of lto-wrapper or mkoffload, or one offlink command) takes from the
 * process it serves: the environment, the working folder, the three streams, the temporary folder
 * and the {@link LinkScope} that owns its files and children and cancels it. Made once at the edge
 * (a command's {@code main} through {@link CommandStartup}, or a link server per client) and passed
 * down; nothing below reads {@code System.getenv}, the JVM's folder or {@code System.out}, so links
 * with different contexts can run in one JVM at the same time.
 *
 * <p>Children run with {@link #environment} in {@link #workingDirectory}. For lto-wrapper {@link
 * #out} carries only its protocol (file names); all human text goes to {@link #err}.
 *
 * @param environment the environment, as the caller had it (see {@link #callerEnvironment})
 * @param workingDirectory the folder relative names are resolved against; absolute
 * @param in standard input (offlink reads none; children get an empty one, as now)
 * @param out standard output
 * @param err standard error
 * @param tempDirectory where temporary files go: libiberty's {@code choose_tmpdir} for {@code
 *     environment} ({@link TempDirectory#choose})
 * @param scope the link's files, children, umask and cancellation
 */
public record LinkContext(
    Map<String, String> environment,
    Path workingDirectory,
    InputStream in,
    PrintStream out,
    PrintStream err,
    Path tempDirectory,
    LinkScope scope) {
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

  /** Copies the environment so that the context stays immutable; checks the fields. */
  public LinkContext {
    environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    if (!workingDirectory.isAbsolute()) {
      throw new IllegalArgumentException("working directory not absolute: " + workingDirectory);
    }
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(err, "err");
    Objects.requireNonNull(tempDirectory, "tempDirectory");
    Objects.requireNonNull(scope, "scope");
  }

  /** A new link's context over {@code scope}, its temporary folder chosen from the environment. */
  public static LinkContext of(
      Map<String, String> environment,
      Path workingDirectory,
      InputStream in,
      PrintStream out,
      PrintStream err,
      LinkScope scope) {
    return new LinkContext(
        environment,
        workingDirectory,
        in,
        out,
        err,
        TempDirectory.choose(environment, workingDirectory),
        scope);
  }

  /** The value of an environment variable, if set (an empty value counts as set). */
  public Optional<String> env(String name) {
    return Optional.ofNullable(environment.get(name));
  }

  /**
   * The same link with other output streams: an in-process mkoffload's diagnostics, captured as a
   * child's would be. Files, children and cancellation stay the link's.
   */
  public LinkContext withOutput(PrintStream newOut, PrintStream newErr) {
    return new LinkContext(environment, workingDirectory, in, newOut, newErr, tempDirectory, scope);
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
    Map<String, String> env = new HashMap<>(environment);
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
}
