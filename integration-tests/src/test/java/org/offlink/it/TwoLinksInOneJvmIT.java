package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.offlink.it.RegistrationAssertions.assertBuilt;
import static org.offlink.it.RegistrationAssertions.assertMatchesCorpus;
import static org.offlink.it.RegistrationAssertions.assertSameBehaviour;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.ltowrapper.LtoWrapper;
import org.offlink.ltowrapper.LtoWrapperWiring;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.LinkScope;

/**
 * The proof that nothing global is left on a link's path (issue 26): three real GCC 12 links run at
 * the same time through the library entry point, {@link LtoWrapper#run}, in this one JVM. The gcc
 * driver, collect2 and ld run as usual; the tool folder's {@code lto-wrapper} is a small script
 * that hands its argv, environment and working folder to this JVM and prints what it gets back, as
 * a link server's client would.
 *
 * <ul>
 *   <li>an nvptx link and a gfx906 link, in different working folders, with different environments
 *       ({@code OFFLINK_FLAGS=--no-consistency-check} and {@code --serial-offload}, {@code LC_ALL},
 *       {@code LANG}) and different {@code TMPDIR}s: their lto-wrapper stdout (temporary names
 *       aside), every file it names, the executables and the images they register are
 *       byte-identical to the same links run with offlink's lto-wrapper as a process;
 *   <li>a third link (gfx906), cancelled while its accel compiler runs: it fails, and leaves no
 *       file in its folder or its {@code TMPDIR} and no process behind, while the other two finish.
 * </ul>
 */
class TwoLinksInOneJvmIT {
  private static final Duration LIMIT = Duration.ofMinutes(4);

  @TempDir Path scratch;

  private Toolchain toolchain;
  private Path dist;
  private LtoWrapper ltoWrapper;

  /** One link: where it runs, what it builds, the environment its tool folder adds. */
  private record Link(String name, String program, TargetSet targets, Map<String, String> env) {}

  @Test
  void twoLinksShareAJvmAndAThirdIsCancelledCleanly() throws Exception {
    dist = Toolchain.offlinkDist();
    toolchain = Toolchain.create(scratch);
    ltoWrapper =
        LtoWrapperWiring.forInstallation(
            Optional.of(dist.resolve("libexec/offlink/lto-wrapper")), LtoWrapper.IN_PROCESS);
    Link nvptx =
        new Link(
            "nvptx",
            "c_map_clauses",
            TargetSet.NVPTX,
            Map.of("OFFLINK_FLAGS", "--no-consistency-check", "LC_ALL", "C.UTF-8"));
    Link gcn =
        new Link(
            "gfx906",
            "c_target_scalar",
            TargetSet.gcn("gfx906"),
            Map.of("OFFLINK_FLAGS", "--serial-offload", "LANG", "C"));
    Link cancelled = new Link("cancelled", "c_many_kernels", TargetSet.gcn("gfx906"), Map.of());

    // As processes, one after the other: offlink's lto-wrapper launcher, its outputs kept.
    Map<Link, Baseline> baselines = new HashMap<>();
    for (Link link : List.of(nvptx, gcn, cancelled)) {
      baselines.put(link, baseline(link));
    }

    // In this JVM, all three at once.
    Path spool = Files.createDirectories(scratch.resolve("spool"));
    try (Server server = new Server(spool)) {
      ExecutorService builds = Executors.newFixedThreadPool(3);
      Map<Link, Future<BuildResult>> relinks = new HashMap<>();
      for (Link link : List.of(nvptx, gcn, cancelled)) {
        relinks.put(link, builds.submit(() -> relink(link, spool, baselines.get(link))));
      }
      Path cancelledWork = baselines.get(cancelled).build().workDirectory();
      server.cancelWhenAccelCompilerRuns(cancelledWork);
      for (Link link : List.of(nvptx, gcn)) {
        BuildResult inJvm = relinks.get(link).get(LIMIT.toSeconds(), TimeUnit.SECONDS);
        assertSameAsBaseline(link, baselines.get(link), inJvm, server);
      }
      BuildResult stopped = relinks.get(cancelled).get(LIMIT.toSeconds(), TimeUnit.SECONDS);
      assertCancelledCleanly(baselines.get(cancelled), stopped, server);
      builds.shutdown();
    }
  }

  /** A link's process run: its build, the program's run, and what lto-wrapper printed. */
  private record Baseline(
      BuildResult build, RunResult run, byte[] executable, Path capture, Set<String> files) {}

  private Baseline baseline(Link link) throws IOException {
    Path work = scratch.resolve(link.name());
    Path capture = Files.createDirectories(scratch.resolve("capture-" + link.name()));
    ToolDir tools = toolDir(link, capturingLauncher(capture));
    BuildResult build =
        toolchain.build(Corpus.program(link.program()), link.targets(), tools, work);
    assertBuilt(build);
    RunResult run = toolchain.run(build);
    assertMatchesCorpus(run);
    byte[] executable = Files.readAllBytes(build.executable().get());
    Set<String> files = new TreeSet<>(listing(work));
    files.remove(build.executable().get().getFileName().toString());
    return new Baseline(build, run, executable, capture, files);
  }

  /** The same link again over the same objects, its lto-wrapper run in this JVM. */
  private BuildResult relink(Link link, Path spool, Baseline baseline) throws IOException {
    Path work = baseline.build().workDirectory();
    Files.delete(baseline.build().executable().get());
    ToolDir tools = toolDir(link, spoolClient(link, spool));
    return toolchain.relink(Corpus.program(link.program()), link.targets(), tools, work, List.of());
  }

  private ToolDir toolDir(Link link, String ltoWrapperScript) throws IOException {
    Path dir = Files.createTempDirectory(scratch, "tools-" + link.name() + "-");
    ToolDirBuilder builder = new ToolDirBuilder(dir, toolchain.stockLibexec(), link.name());
    for (OffloadTarget target : link.targets().targets()) {
      builder.offlinkMkoffload(target, dist);
    }
    Path script = dir.resolve("lto-wrapper");
    Files.writeString(script, ltoWrapperScript);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    ToolDir tools = builder.build();
    for (Map.Entry<String, String> e : link.env().entrySet()) {
      tools = tools.withEnvironment(e.getKey(), e.getValue());
    }
    return tools;
  }

  /** Runs offlink's lto-wrapper launcher, keeping its stdout, status and every file it named. */
  private String capturingLauncher(Path capture) {
    return "#!/bin/sh\n"
        + "cap="
        + quote(capture)
        + "\n"
        + quote(dist.resolve("libexec/offlink/lto-wrapper"))
        + " \"$@\" > \"$cap/stdout\"\n"
        + "status=$?\n"
        + "n=0\n"
        + "while IFS= read -r f; do cp \"$f\" \"$cap/out.$n\"; n=$((n+1)); done < \"$cap/stdout\"\n"
        + "echo $status > \"$cap/status\"\n"
        + "cat \"$cap/stdout\"\n"
        + "exit $status\n";
  }

  /** Hands the run to this JVM (argv, environment, folder) and prints what comes back. */
  private static String spoolClient(Link link, Path spool) {
    return "#!/bin/sh\n"
        + "d=$(mktemp -d "
        + quote(spool)
        + "/"
        + link.name()
        + ".XXXXXX) || exit 99\n"
        + "printf '%s\\0' \"$0\" \"$@\" > \"$d/argv\"\n"
        + "env -0 > \"$d/env\"\n"
        + "pwd -P > \"$d/cwd\"\n"
        + ": > \"$d/ready\"\n"
        + "while [ ! -e \"$d/done\" ]; do sleep 0.02; done\n"
        + "cat \"$d/stdout\"\n"
        + "cat \"$d/stderr\" >&2\n"
        + "exit $(cat \"$d/status\")\n";
  }

  private void assertSameAsBaseline(Link link, Baseline baseline, BuildResult inJvm, Server server)
      throws IOException {
    assertBuilt(inJvm);
    Request request = server.requestFor(inJvm.workDirectory());
    assertEquals(0, request.status, link.name() + ": lto-wrapper in the JVM:\n" + request.stderr);
    Path capture = baseline.capture();
    assertEquals("0", Files.readString(capture.resolve("status")).trim(), link.name());
    String processOut = Files.readString(capture.resolve("stdout"));
    assertEquals(normalise(processOut), normalise(request.stdout), link.name() + ": stdout");
    List<String> named = processOut.lines().toList();
    assertFalse(named.isEmpty(), link.name() + ": lto-wrapper named no object");
    for (int i = 0; i < named.size(); i++) {
      assertArrayEquals(
          Files.readAllBytes(capture.resolve("out." + i)),
          request.outputs.get(i),
          link.name() + ": " + named.get(i) + " differs");
    }
    assertArrayEquals(
        baseline.executable(),
        Files.readAllBytes(inJvm.executable().get()),
        link.name() + ": the executables differ");
    RunResult run = toolchain.run(inJvm);
    assertMatchesCorpus(run);
    assertSameBehaviour(baseline.run(), run);
  }

  private void assertCancelledCleanly(Baseline baseline, BuildResult stopped, Server server)
      throws IOException, InterruptedException {
    Path work = stopped.workDirectory();
    assertTrue(server.cancelled(work), "the third link was never cancelled: it finished first");
    Request request = server.requestFor(work);
    assertNotEquals(0, request.status, "a cancelled link succeeded");
    assertFalse(stopped.succeeded(), "the cancelled link's gcc succeeded");
    assertEquals(List.of(), listing(work.resolve("tmp")), "left in the link's TMPDIR");
    assertEquals(
        baseline.files(), new TreeSet<>(listing(work)), "left in the link's working folder");
    assertEquals(List.of(), accelCompilersIn(work.toRealPath()), "accel compilers still running");
  }

  private static List<String> listing(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> !n.startsWith(".stdout-") && !n.startsWith(".stderr-"))
          .sorted()
          .toList();
    }
  }

  /** Processes of this JVM's tree running an accel compiler in {@code dir}. */
  private static List<Long> accelCompilersIn(Path dir) {
    List<Long> found = new ArrayList<>();
    ProcessHandle.current()
        .descendants()
        .filter(p -> p.info().command().map(c -> c.contains("accel")).orElse(false))
        .filter(p -> dir.equals(cwd(p)))
        .forEach(p -> found.add(p.pid()));
    return found;
  }

  private static Path cwd(ProcessHandle p) {
    try {
      return Files.readSymbolicLink(Path.of("/proc", Long.toString(p.pid()), "cwd"));
    } catch (IOException e) {
      return null;
    }
  }

  /** Temporary names differ from run to run: {@code .../ccXXXXXX.suffix}. */
  private static String normalise(String stdout) {
    return stdout.replaceAll("/cc[A-Za-z0-9]{6}\\.", "/ccXXXXXX.");
  }

  private static String quote(Path path) {
    String text = path.toString();
    if (text.contains("'")) {
      throw new IllegalArgumentException("quote in path " + text);
    }
    return "'" + text + "'";
  }

  /** One lto-wrapper run handed to this JVM, and its outcome. */
  private static final class Request {
    final Path dir;
    final List<String> argv;
    final Map<String, String> env;
    final Path cwd;
    volatile LinkContext context;
    volatile int status = -1;
    volatile String stdout = "";
    volatile String stderr = "";
    final List<byte[]> outputs = new java.util.concurrent.CopyOnWriteArrayList<>();

    Request(Path dir) throws IOException {
      this.dir = dir;
      this.argv = split(Files.readAllBytes(dir.resolve("argv")));
      this.env = new HashMap<>();
      for (String entry : split(Files.readAllBytes(dir.resolve("env")))) {
        int eq = entry.indexOf('=');
        if (eq > 0) {
          env.put(entry.substring(0, eq), entry.substring(eq + 1));
        }
      }
      this.cwd = Path.of(Files.readString(dir.resolve("cwd")).trim());
    }

    private static List<String> split(byte[] nulSeparated) {
      List<String> words = new ArrayList<>();
      String text = new String(nulSeparated, StandardCharsets.UTF_8);
      int from = 0;
      for (int i = 0; i < text.length(); i++) {
        if (text.charAt(i) == '\0') {
          words.add(text.substring(from, i));
          from = i + 1;
        }
      }
      return words;
    }
  }

  /**
   * Takes the spooled runs and runs each on a thread of its own through {@link LtoWrapper#run},
   * with a context of its own: the client's environment and folder, captured streams, a fresh
   * {@link LinkScope}.
   */
  private final class Server implements AutoCloseable {
    private final Path spool;
    private final Map<Path, Request> byFolder = new ConcurrentHashMap<>();
    private final Set<Path> cancelled = ConcurrentHashMap.newKeySet();
    private final Set<Path> taken = ConcurrentHashMap.newKeySet();
    private final ExecutorService links = Executors.newCachedThreadPool();
    private final Thread poller;
    private volatile boolean open = true;

    Server(Path spool) {
      this.spool = spool;
      this.poller = new Thread(this::poll, "spool-poller");
      poller.setDaemon(true);
      poller.start();
    }

    private void poll() {
      while (open) {
        try (Stream<Path> dirs = Files.list(spool)) {
          for (Path d : dirs.toList()) {
            if (Files.exists(d.resolve("ready")) && taken.add(d)) {
              Request r = new Request(d);
              byFolder.put(r.cwd, r);
              links.submit(() -> serve(r));
            }
          }
          Thread.sleep(10);
        } catch (IOException | InterruptedException e) {
          return;
        }
      }
    }

    private Void serve(Request r) throws IOException {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      try (PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
          PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
        LinkContext context =
            LinkContext.of(
                r.env,
                r.cwd,
                InputStream.nullInputStream(),
                outStream,
                errStream,
                LinkScope.withProcessUmask());
        r.context = context;
        r.status = ltoWrapper.run(context, r.argv);
        context.scope().close();
      }
      r.stdout = out.toString(StandardCharsets.UTF_8);
      r.stderr = err.toString(StandardCharsets.UTF_8);
      for (String line : r.stdout.lines().toList()) {
        Path file = r.cwd.resolve(line);
        r.outputs.add(Files.exists(file) ? Files.readAllBytes(file) : new byte[0]);
      }
      Files.writeString(r.dir.resolve("stdout"), r.stdout);
      Files.writeString(r.dir.resolve("stderr"), r.stderr);
      Files.writeString(r.dir.resolve("status"), Integer.toString(r.status));
      Files.writeString(r.dir.resolve("done"), "");
      return null;
    }

    /**
     * Cancels the link run in {@code work} once one of its accel compilers runs: midway, with
     * children and temporary files of its own.
     */
    void cancelWhenAccelCompilerRuns(Path work) throws InterruptedException, IOException {
      Path real = work.toRealPath();
      long deadline = System.nanoTime() + LIMIT.toNanos();
      while (System.nanoTime() < deadline) {
        Request r = byFolder.get(real);
        if (r != null && r.context != null && !accelCompilersIn(real).isEmpty()) {
          r.context.scope().cancel();
          cancelled.add(work);
          return;
        }
        Thread.sleep(5);
      }
    }

    boolean cancelled(Path work) {
      return cancelled.contains(work);
    }

    Request requestFor(Path work) throws IOException {
      Request r = byFolder.get(work.toRealPath());
      assertTrue(r != null, "no lto-wrapper run came from " + work);
      return r;
    }

    @Override
    public void close() throws InterruptedException {
      open = false;
      links.shutdown();
      links.awaitTermination(LIMIT.toSeconds(), TimeUnit.SECONDS);
      poller.join();
    }
  }
}
