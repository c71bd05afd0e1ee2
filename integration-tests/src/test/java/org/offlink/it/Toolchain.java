package org.offlink.it;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;

/**
 * Builds corpus programs with the real GCC 12 for a {@link TargetSet} and a {@link ToolDir}, and
 * runs them under the registration spy ({@code LD_PRELOAD}). Children get a small fixed environment
 * whose PATH leaves out /usr/local/bin by default, because the CUDA 13 ptxas there rejects GCC 12's
 * PTX and breaks every nvptx link, stock included.
 *
 * <p>Layout of a build folder: the program's files copied flat, {@code libcorpus.a} / {@code
 * libcorpus.so} when the descriptor asks for them, the executable {@code prog} (found next to
 * itself through {@code -rpath $ORIGIN}), {@code tmp/} as TMPDIR and {@code spy.txt}.
 */
final class Toolchain {
  /** The default PATH for every child: no /usr/local/bin. */
  static final String SAFE_PATH = "/usr/bin:/bin";

  static final String EXECUTABLE = "prog";
  private static final String SPY_SOURCE = "/interposer/gomp_register_spy.c";
  private static final Duration BUILD_STEP_LIMIT = Duration.ofMinutes(3);
  private static final Duration RUN_LIMIT = Duration.ofMinutes(1);

  private final ProcessRunner runner;
  private final String path;
  private final Path spyLibrary;
  private final Path stockLibexec;

  private Toolchain(ProcessRunner runner, String path, Path spyLibrary, Path stockLibexec) {
    this.runner = runner;
    this.path = path;
    this.spyLibrary = spyLibrary;
    this.stockLibexec = stockLibexec;
  }

  /**
   * A toolchain using {@link #SAFE_PATH}; builds the spy library into {@code scratch} and asks
   * gcc-12 where its lto-wrapper lives. Fails (never skips) when gcc-12 is missing.
   */
  static Toolchain create(Path scratch) throws IOException {
    ProcessRunner runner = new LocalProcessRunner();
    Map<String, String> env = Map.of("PATH", SAFE_PATH, "LC_ALL", "C");
    CommandResult where =
        runner.runChecked(
            Command.of(List.of("gcc-12", "-print-prog-name=lto-wrapper"), env, scratch));
    Path ltoWrapper = Path.of(where.stdout().trim());
    if (!ltoWrapper.isAbsolute() || !Files.isExecutable(ltoWrapper)) {
      throw new IOException("gcc-12 names no usable lto-wrapper: '" + where.stdout().trim() + "'");
    }
    Path source = scratch.resolve("gomp_register_spy.c");
    try (InputStream in = Toolchain.class.getResourceAsStream(SPY_SOURCE)) {
      if (in == null) {
        throw new IOException("test resource " + SPY_SOURCE + " is missing");
      }
      Files.copy(in, source, StandardCopyOption.REPLACE_EXISTING);
    }
    Path spy = scratch.resolve("libgomp_register_spy.so");
    runner.runChecked(
        Command.of(
            List.of(
                "gcc-12",
                "-O2",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-shared",
                "-fPIC",
                "-o",
                spy.toString(),
                source.toString(),
                "-ldl"),
            env,
            scratch));
    return new Toolchain(runner, SAFE_PATH, spy, ltoWrapper.getParent());
  }

  /** The built offlink tree ({@code target/offlink}), named by failsafe's {@code offlink.dist}. */
  static Path offlinkDist() {
    String property = System.getProperty("offlink.dist");
    if (property == null) {
      throw new IllegalStateException("system property offlink.dist (set by failsafe) is missing");
    }
    return Path.of(property);
  }

  /** This toolchain with another PATH for its children. */
  Toolchain withPath(String newPath) {
    return new Toolchain(runner, newPath, spyLibrary, stockLibexec);
  }

  /** Stock GCC's libexec folder, holding lto-wrapper and accel/&lt;target&gt;/mkoffload. */
  Path stockLibexec() {
    return stockLibexec;
  }

  /** The built {@code LD_PRELOAD} spy. */
  Path spyLibrary() {
    return spyLibrary;
  }

  /** Builds {@code program} in the empty folder {@code work}. */
  BuildResult build(CorpusProgram program, TargetSet targets, ToolDir tools, Path work)
      throws IOException {
    return build(program, targets, tools, work, List.of());
  }

  /** Builds {@code program}, adding {@code extraLinkOptions} (e.g. -save-temps) to its links. */
  BuildResult build(
      CorpusProgram program,
      TargetSet targets,
      ToolDir tools,
      Path work,
      List<String> extraLinkOptions)
      throws IOException {
    return build(program, targets, tools, work, extraLinkOptions, false);
  }

  /**
   * Links {@code program} again in {@code work}, which already holds the objects of an earlier
   * build of the same program and flags (so two tool folders link the very same objects): only the
   * archive and the links run.
   */
  BuildResult relink(
      CorpusProgram program,
      TargetSet targets,
      ToolDir tools,
      Path work,
      List<String> extraLinkOptions)
      throws IOException {
    return build(program, targets, tools, work, extraLinkOptions, true);
  }

  private BuildResult build(
      CorpusProgram program,
      TargetSet targets,
      ToolDir tools,
      Path work,
      List<String> extraLinkOptions,
      boolean reuseObjects)
      throws IOException {
    copyFiles(program.directory(), work);
    Files.createDirectories(work.resolve("tmp"));
    Build build = new Build(program, work, linkOptions(program, targets, tools, extraLinkOptions));
    build.reuseObjects = reuseObjects;
    build.env.putAll(tools.environment());
    LinkMode.apply(build.env);
    boolean ok = build.staticLibrary() && build.sharedLibrary() && build.executable();
    return new BuildResult(
        program,
        targets,
        tools,
        work,
        build.failedStatus,
        build.failedDiagnostics,
        build.log.toString(),
        ok ? Optional.of(work.resolve(EXECUTABLE)) : Optional.empty());
  }

  /** Runs a successful build's executable with the spy preloaded. */
  RunResult run(BuildResult build) throws IOException {
    Path executable = build.executable().orElseThrow(() -> new IllegalStateException("no program"));
    Path dump = build.workDirectory().resolve("spy.txt");
    Files.deleteIfExists(dump);
    Map<String, String> env = baseEnvironment(build.workDirectory());
    env.put("LD_PRELOAD", spyLibrary.toString());
    env.put("OFFLINK_SPY_OUT", dump.toString());
    env.put("OMP_NUM_THREADS", "2");
    CommandResult result =
        runner.run(
            Command.of(List.of(executable.toString()), env, build.workDirectory())
                .withTimeout(RUN_LIMIT));
    String text = Files.exists(dump) ? Files.readString(dump) : "";
    return new RunResult(
        build, result.exitStatus(), result.stdout(), result.stderr(), RegistrationDump.parse(text));
  }

  /**
   * Runs one build step ({@code argv}) in {@code work} with the environment of {@link #build} plus
   * {@code tools}' environment, for tests that drive the compiler themselves (make, mixed flags).
   */
  CommandResult step(List<String> argv, ToolDir tools, Path work) throws IOException {
    Files.createDirectories(work.resolve("tmp"));
    Map<String, String> env = baseEnvironment(work);
    env.putAll(tools.environment());
    LinkMode.apply(env);
    return runner.run(Command.of(argv, env, work).withTimeout(BUILD_STEP_LIMIT));
  }

  private static List<String> linkOptions(
      CorpusProgram program, TargetSet targets, ToolDir tools, List<String> extra) {
    List<String> options = new ArrayList<>(tools.driverOptions());
    options.addAll(targets.driverOptions());
    options.addAll(program.linkFlags());
    options.addAll(extra);
    return options;
  }

  private Map<String, String> baseEnvironment(Path work) {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", path);
    env.put("LC_ALL", "C");
    env.put("TMPDIR", work.resolve("tmp").toString());
    // offlink's launchers run on the JVM running the tests.
    env.put("OFFLINK_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    return env;
  }

  private static void copyFiles(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (DirectoryStream<Path> files = Files.newDirectoryStream(from, Files::isRegularFile)) {
      for (Path file : files) {
        Files.copy(file, to.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  /** The steps of one build; each returns false after recording the first failure. */
  private final class Build {
    final CorpusProgram program;
    final Path work;
    final List<String> linkOptions;
    final Map<String, String> env;
    final StringBuilder log = new StringBuilder();
    int failedStatus;
    String failedDiagnostics = "";
    final List<String> libraries = new ArrayList<>();
    boolean reuseObjects;

    Build(CorpusProgram program, Path work, List<String> linkOptions) {
      this.program = program;
      this.work = work;
      this.linkOptions = linkOptions;
      this.env = baseEnvironment(work);
    }

    boolean staticLibrary() throws IOException {
      if (program.staticSources().isEmpty()) {
        return true;
      }
      Optional<List<String>> objects = compileAll(program.staticSources(), List.of());
      if (objects.isEmpty()) {
        return false;
      }
      List<String> ar = new ArrayList<>(List.of("ar", "rcs", "libcorpus.a"));
      ar.addAll(objects.get());
      libraries.addAll(List.of("-L.", "-lcorpus"));
      return step(ar);
    }

    boolean sharedLibrary() throws IOException {
      if (program.sharedSources().isEmpty()) {
        return true;
      }
      Optional<List<String>> objects = compileAll(program.sharedSources(), List.of("-fPIC"));
      if (objects.isEmpty()) {
        return false;
      }
      libraries.addAll(List.of("-L.", "-lcorpus", "-Wl,-rpath,$ORIGIN"));
      return step(link(objects.get(), List.of("-shared", "-fPIC"), "libcorpus.so"));
    }

    boolean executable() throws IOException {
      Optional<List<String>> objects = compileAll(program.sources(), List.of());
      if (objects.isEmpty()) {
        return false;
      }
      List<String> inputs = new ArrayList<>(objects.get());
      inputs.addAll(libraries);
      return step(link(inputs, List.of(), EXECUTABLE));
    }

    /** Compiles each source to {@code <stem>.o}; empty after the first failure. */
    private Optional<List<String>> compileAll(List<String> sources, List<String> extra)
        throws IOException {
      List<String> objects = new ArrayList<>();
      for (String source : sources) {
        String object = source.substring(0, source.lastIndexOf('.')) + ".o";
        if (reuseObjects) {
          if (!Files.isRegularFile(work.resolve(object))) {
            throw new IOException(work + ": relink without the object " + object);
          }
          objects.add(object);
          continue;
        }
        List<String> argv = driverWithFlags();
        argv.addAll(extra);
        argv.addAll(List.of("-c", source, "-o", object));
        if (!step(argv)) {
          return Optional.empty();
        }
        objects.add(object);
      }
      return Optional.of(objects);
    }

    private List<String> link(List<String> inputs, List<String> kind, String output) {
      List<String> argv = driverWithFlags();
      argv.addAll(kind);
      argv.addAll(linkOptions);
      argv.addAll(inputs);
      argv.addAll(List.of("-o", output));
      return argv;
    }

    private List<String> driverWithFlags() {
      List<String> argv = new ArrayList<>();
      argv.add(program.language().driver());
      argv.addAll(program.model().flags());
      argv.addAll(program.flags());
      return argv;
    }

    private boolean step(List<String> argv) throws IOException {
      CommandResult result = runner.run(Command.of(argv, env, work).withTimeout(BUILD_STEP_LIMIT));
      log.append("$ ").append(String.join(" ", argv)).append('\n').append(result.stderr());
      if (result.succeeded()) {
        return true;
      }
      failedStatus = result.exitStatus();
      failedDiagnostics = result.stderr();
      return false;
    }
  }
}
