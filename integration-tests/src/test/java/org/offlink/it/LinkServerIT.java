package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.server.ServerQuery;

/**
 * Issue 30's link server under load and under faults, with real GCC 12 links of a corpus program
 * (the suite's server mode only): sixteen links at once from {@code make -j16}, a soak with random
 * SIGINT/SIGTERM to clients and SIGKILL to the server (200 links in the test run, issue 30's 1,000
 * with {@code scripts/soak.sh}), a client SIGKILLed mid-link, and a rebuilt installation that never
 * reaches the old server. Each test has a server folder of its own, so that the servers it kills
 * and counts are its own.
 */
class LinkServerIT {
  private static final CorpusProgram PROGRAM = Corpus.program("c_declare_target_tus");
  private static final int SOAK_LINKS = Integer.getInteger("offlink.it.soakLinks", 200);

  @TempDir static Path scratch;
  private static Toolchain toolchain;
  private static Path objects;
  private static RunResult stock;
  private static final List<Path> folders = new ArrayList<>();

  @BeforeAll
  static void buildStock() throws IOException {
    assumeTrue(LinkMode.current() == LinkMode.SERVER, "the link server's own tests (server mode)");
    toolchain = Toolchain.create(scratch);
    objects = scratch.resolve("stock");
    BuildResult built = toolchain.build(PROGRAM, TargetSet.NVPTX, ToolDir.stock(), objects);
    RegistrationAssertions.assertBuilt(built);
    stock = toolchain.run(built);
  }

  @AfterAll
  static void stopServers() throws IOException {
    for (Path f : folders) {
      for (Path socket : ServerQuery.sockets(f)) {
        Optional<Map<String, String>> s = ServerQuery.stop(socket);
        s.flatMap(st -> ProcessHandle.of(Long.parseLong(st.get("pid"))))
            .ifPresent(p -> p.onExit().orTimeout(60, TimeUnit.SECONDS).join());
      }
    }
  }

  /** A fresh server folder for one test (short: sockets live in it). */
  private static Path folder(String name) throws IOException {
    Path f = Path.of(LinkMode.serverFolder() + "-" + name);
    Files.createDirectories(f.getParent());
    folders.add(f);
    return f;
  }

  /**
   * The link line of the corpus program through {@code tree}, writing {@code <output>/prog} (the
   * spy names a registration after the program, so every program is called {@code prog}).
   */
  private static List<String> link(Path tree, String output) {
    List<String> argv = new ArrayList<>();
    argv.add(PROGRAM.language().driver());
    argv.addAll(PROGRAM.model().flags());
    argv.addAll(PROGRAM.flags());
    argv.addAll(List.of("-B", tree.resolve("libexec/offlink") + "/"));
    argv.addAll(TargetSet.NVPTX.driverOptions());
    argv.addAll(PROGRAM.linkFlags());
    for (String source : PROGRAM.sources()) {
      argv.add(objects.resolve(source.substring(0, source.lastIndexOf('.')) + ".o").toString());
    }
    argv.addAll(List.of("-o", output + "/" + Toolchain.EXECUTABLE));
    return argv;
  }

  /** {@code <work>/<name>}, made, as {@link #link} takes it. */
  private static String dir(Path work, String name) throws IOException {
    return Files.createDirectories(work.resolve(name)).toString();
  }

  private static Path program(Path work, String name) {
    return work.resolve(name).resolve(Toolchain.EXECUTABLE);
  }

  private static Map<String, String> env(Path folder, Path tmp) {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", Toolchain.SAFE_PATH);
    env.put("LC_ALL", "C");
    env.put("TMPDIR", tmp.toString());
    env.put("JAVA_HOME", System.getProperty("java.home"));
    env.put("OFFLINK_SERVER_DIR", folder.toString());
    env.put("OFFLINK_SERVER_IDLE", "120");
    return env;
  }

  private static ProcessBuilder builder(List<String> argv, Map<String, String> env, Path cwd) {
    // Default dispositions, as FaultInjectionIT: a JVM started in the background inherits SIGINT
    // ignored, and signals sent here must mean the same wherever the suite runs.
    List<String> withDefaults = new ArrayList<>(List.of("env", "--default-signal=HUP,INT,TERM"));
    withDefaults.addAll(argv);
    ProcessBuilder pb = new ProcessBuilder(withDefaults).directory(cwd.toFile());
    pb.environment().clear();
    pb.environment().putAll(env);
    return pb.redirectErrorStream(true);
  }

  private record Outcome(int status, String output) {}

  private static Outcome run(ProcessBuilder pb) throws IOException, InterruptedException {
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "timed out: " + pb.command());
    return new Outcome(p.exitValue(), out);
  }

  /** Registrations of an executable linked by offlink, compared with stock's. */
  private static void assertRegistersAsStock(Path executable) throws IOException {
    BuildResult b =
        new BuildResult(
            PROGRAM,
            TargetSet.NVPTX,
            ToolDir.stock(),
            executable.getParent(),
            0,
            "",
            "",
            Optional.of(executable));
    RegistrationAssertions.assertSameRegistrations(stock, toolchain.run(b));
  }

  private static Map<String, String> status(Path folder) throws IOException {
    List<Path> sockets = ServerQuery.sockets(folder);
    for (Path s : sockets) {
      Optional<Map<String, String>> st = ServerQuery.status(s);
      if (st.isPresent()) {
        return st.get();
      }
    }
    throw new IOException("no live server in " + folder + " (" + sockets + ")");
  }

  /**
   * The server's status once it is quiet: no link running and the same number of descriptors in
   * three readings 100 ms apart, or the last reading after 10 s. A link's client can exit and its
   * next command ask for the status before the server's thread that sent the exit status has closed
   * that connection.
   */
  private static Map<String, String> settledStatus(Path folder)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    Map<String, String> s = status(folder);
    int same = 0;
    while (same < 2 && System.nanoTime() < deadline) {
      Thread.sleep(100);
      Map<String, String> next = status(folder);
      boolean quiet =
          next.get("active_links").equals("0")
              && next.get("open_fds").equals(s.get("open_fds"))
              && next.get("pid").equals(s.get("pid"));
      same = quiet ? same + 1 : 0;
      s = next;
    }
    return s;
  }

  /**
   * What process {@code pid}'s open descriptors are, counted: a file's path, or its kind ({@code
   * socket}, {@code pipe}, {@code anon_inode:[eventpoll]}, ...); empty if {@code /proc} does not
   * say.
   */
  private static Map<String, Long> descriptorKinds(String pid) {
    Map<String, Long> kinds = new java.util.TreeMap<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc", pid, "fd"))) {
      for (Path fd : fds.toList()) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          String kind = target.replaceFirst("^(socket|pipe):\\[\\d+\\]$", "$1");
          kinds.merge(kind, 1L, Long::sum);
        } catch (IOException closed) {
          // closed while listed
        }
      }
    } catch (IOException gone) {
      // not ours to look at, or exited
    }
    return kinds;
  }

  /** Per kind, how many more (or fewer) descriptors {@code now} has than {@code then}. */
  private static Map<String, Long> difference(Map<String, Long> now, Map<String, Long> then) {
    Map<String, Long> d = new java.util.TreeMap<>();
    for (String kind : new java.util.TreeSet<>(now.keySet())) {
      d.put(kind, now.get(kind) - then.getOrDefault(kind, 0L));
    }
    then.keySet().forEach(kind -> d.putIfAbsent(kind, -then.get(kind)));
    d.values().removeIf(n -> n == 0);
    return d;
  }

  private static void assertNothingLeft(Path tmp, Path work) throws IOException {
    try (Stream<Path> left = Files.list(tmp)) {
      assertEquals(List.of(), left.toList(), "files left in TMPDIR");
    }
    assertEquals(List.of(), processesIn(work), "processes left behind");
  }

  /** Processes whose working folder lies under {@code dir} (a link's children, left behind). */
  private static List<String> processesIn(Path dir) {
    List<String> found = new ArrayList<>();
    ProcessHandle.allProcesses()
        .forEach(
            p -> {
              try {
                Path cwd = Files.readSymbolicLink(Path.of("/proc", Long.toString(p.pid()), "cwd"));
                if (cwd.startsWith(dir)) {
                  found.add(p.pid() + " " + p.info().commandLine().orElse("?"));
                }
              } catch (IOException | UnsupportedOperationException gone) {
                // exited, or not ours to look at
              }
            });
    return found;
  }

  @Test
  void sixteenLinksFromMakeJ16AreOneServersAndAllAsStock() throws Exception {
    Path work = Files.createDirectories(scratch.resolve("make"));
    Path tmp = Files.createDirectories(work.resolve("tmp"));
    Path folder = folder("make");
    Path tree = Toolchain.offlinkDist();
    StringBuilder targets = new StringBuilder();
    for (int i = 0; i < 16; i++) {
      targets.append(" prog-").append(i);
    }
    // The targets are the (existing) folders of the programs: phony, so that make links them.
    StringBuilder make = new StringBuilder(".PHONY: all" + targets + "\nall:" + targets + "\n");
    for (int i = 0; i < 16; i++) {
      Files.createDirectories(work.resolve("prog-" + i));
      make.append("prog-").append(i).append(":\n\t");
      make.append(String.join(" ", link(tree, "prog-" + i))).append("\n");
    }
    Files.writeString(work.resolve("Makefile"), make.toString());
    Outcome made = run(builder(List.of("make", "-j16", "-s"), env(folder, tmp), work));
    assertEquals(0, made.status(), made.output());
    byte[] first = Files.readAllBytes(program(work, "prog-0"));
    for (int i = 1; i < 16; i++) {
      assertArrayEquals(first, Files.readAllBytes(program(work, "prog-" + i)), "prog-" + i);
    }
    assertRegistersAsStock(program(work, "prog-0"));
    // The same bytes as a link in a JVM of its own.
    Map<String, String> own = env(folder, tmp);
    own.put("OFFLINK_FLAGS", "--no-server");
    Outcome alone = run(builder(link(tree, dir(work, "prog-own")), own, work));
    assertEquals(0, alone.status(), alone.output());
    assertArrayEquals(first, Files.readAllBytes(program(work, "prog-own")));
    Map<String, String> s = status(folder);
    assertEquals("16", s.get("links"), "one server ran every link: " + s);
    assertNothingLeft(tmp, work);
    // What a user sees of it.
    Outcome shown =
        run(
            builder(
                List.of(tree.resolve("bin/offlink").toString(), "server", "status"),
                env(folder, tmp),
                work));
    assertEquals(0, shown.status(), shown.output());
    assertTrue(
        shown
            .output()
            .startsWith(
                "server "
                    + s.get("pid")
                    + " (this installation): serving, 0 link(s)"
                    + " running, 16 run (0 failed)"),
        shown.output());
    Outcome doctor =
        run(
            builder(
                List.of(tree.resolve("bin/offlink").toString(), "doctor"), env(folder, tmp), work));
    assertTrue(
        doctor.output().contains("link server: running (pid " + s.get("pid") + " on Java "),
        doctor.output());
    Outcome stopped =
        run(
            builder(
                List.of(tree.resolve("bin/offlink").toString(), "server", "stop"),
                env(folder, tmp),
                work));
    assertEquals("stopping server " + s.get("pid") + " (0 link(s) running)\n", stopped.output());
    assertEquals(List.of(), ServerQuery.sockets(folder), "the stopped server's socket");
  }

  @Test
  void aClientKilledMidLinkHasItsChildrenEndedAndFilesRemoved() throws Exception {
    Path work = Files.createDirectories(scratch.resolve("killed"));
    Path tmp = Files.createDirectories(work.resolve("tmp"));
    Path folder = folder("killed");
    Path tree = Toolchain.offlinkDist();
    Map<String, String> env = env(folder, tmp);
    env.put("OFFLINK_FLAGS", "--no-cache");
    Outcome warm = run(builder(link(tree, dir(work, "warm")), env, work));
    assertEquals(0, warm.status(), warm.output());
    for (int attempt = 0; attempt < 3; attempt++) {
      Process p = builder(link(tree, dir(work, "killed")), env, work).start();
      // Into the accel compile: the link's children are running (and its temporaries exist).
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (processesIn(work).stream()
              .noneMatch(l -> l.contains("accel-nvptx") || l.contains("lto1"))
          && p.isAlive()
          && System.nanoTime() < deadline) {
        Thread.sleep(2);
      }
      // SIGKILL the link client only (lto-wrapper's), as the OOM killer or a CI job's end would.
      ProcessHandle client =
          p.toHandle()
              .descendants()
              .filter(h -> h.info().command().orElse("").endsWith("/lto-wrapper"))
              .findFirst()
              .orElse(null);
      if (client == null) {
        p.waitFor();
        continue; // the link was too quick to catch: try again
      }
      client.destroyForcibly();
      p.waitFor(60, TimeUnit.SECONDS);
      // The server ends the link's children, then removes the link's files as the link unwinds:
      // settled once it says it runs no link (the children may be gone a moment before that).
      long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while ((!processesIn(work).isEmpty() || !"0".equals(status(folder).get("active_links")))
          && System.nanoTime() < settle) {
        Thread.sleep(20);
      }
      assertNothingLeft(tmp, work);
      return;
    }
    fail("no link could be caught in its accel compile");
  }

  /**
   * Debian 12's nvptx-tools linker, which a link server reproduces in-process
   * (org.offlink.bridge.nvptx.NvptxLinkerStandIn, by the same SHA-256).
   */
  private static final String DEBIAN12_NVPTX_LD =
      "8e90edd2eff1c20efeae8ff705ad1e0a3dc7e5d2f338a1a58d6e8ac024a9ce6f";

  @Test
  void nvptxPtxIsLinkedInProcessOnceTheServerHasReadTheLibraries() throws Exception {
    Path ld = Path.of("/usr/lib/gcc/x86_64-linux-gnu/12/accel/nvptx-none/ld");
    assumeTrue(
        Files.isRegularFile(ld) && DEBIAN12_NVPTX_LD.equals(Digests.sha256(Files.readAllBytes(ld))),
        "Debian 12's nvptx-none-ld (nvptx-tools 0.20220610-1) is not installed: the server links"
            + " PTX in-process only for it");
    Path work = Files.createDirectories(scratch.resolve("ptxlink"));
    Path tmp = Files.createDirectories(work.resolve("tmp"));
    Path folder = folder("ptxlink");
    Path tree = Toolchain.offlinkDist();
    Map<String, String> env = env(folder, tmp);
    env.put("OFFLINK_FLAGS", "--no-cache");
    env.put("OFFLINK_TIMING", "1");
    // The server's first nvptx link runs as GCC runs it, and the server reads the libraries.
    Outcome first = run(builder(link(tree, dir(work, "first")), env, work));
    assertEquals(0, first.status(), first.output());
    assertTrue(
        first.output().contains("PTX linked by the accel driver's own linker"), first.output());
    assertRegistersAsStock(program(work, "first"));
    Thread.sleep(2000); // the server reads them a second after that link
    String how = "";
    for (int i = 0; i < 10 && !how.contains("PTX linked in-process"); i++) {
      Outcome later = run(builder(link(tree, dir(work, "later")), env, work));
      assertEquals(0, later.status(), later.output());
      how = later.output();
    }
    assertTrue(how.contains("PTX linked in-process"), "never linked in-process: " + how);
    assertRegistersAsStock(program(work, "later"));
    // Without OFFLINK_TIMING it says nothing; --external-nvptx-ld keeps nvptx-tools' linker.
    env.remove("OFFLINK_TIMING");
    env.put("OFFLINK_FLAGS", "--no-cache --external-nvptx-ld");
    Outcome external = run(builder(link(tree, dir(work, "external")), env, work));
    assertEquals(0, external.status(), external.output());
    assertRegistersAsStock(program(work, "external"));
    assertArrayEquals(
        Files.readAllBytes(program(work, "external")), Files.readAllBytes(program(work, "later")));
    assertNothingLeft(tmp, work);
  }

  @Test
  void aRebuiltInstallationNeverUsesTheOldServer() throws Exception {
    Path work = Files.createDirectories(scratch.resolve("rebuilt"));
    Path tmp = Files.createDirectories(work.resolve("tmp"));
    Path folder = folder("rebuilt");
    Path tree = scratch.resolve("tree");
    Outcome copied =
        run(
            builder(
                List.of("cp", "-a", Toolchain.offlinkDist().toString(), tree.toString()),
                Map.of("PATH", Toolchain.SAFE_PATH),
                scratch));
    assertEquals(0, copied.status(), copied.output());
    Outcome first = run(builder(link(tree, dir(work, "first")), env(folder, tmp), work));
    assertEquals(0, first.status(), first.output());
    long old = Long.parseLong(status(folder).get("pid"));
    // A rebuild replaces a jar (here: a new modification time, as Maven's copy gives it).
    Path jar;
    try (Stream<Path> jars = Files.list(tree.resolve("lib"))) {
      jar =
          jars.filter(j -> j.getFileName().toString().startsWith("lto-wrapper"))
              .findFirst()
              .orElseThrow();
    }
    Files.setLastModifiedTime(
        jar, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 5000));
    Outcome second = run(builder(link(tree, dir(work, "second")), env(folder, tmp), work));
    assertEquals(0, second.status(), second.output());
    assertArrayEquals(
        Files.readAllBytes(program(work, "first")), Files.readAllBytes(program(work, "second")));
    Map<Long, String> ran = new HashMap<>();
    for (Path socket : ServerQuery.sockets(folder)) {
      ServerQuery.status(socket)
          .ifPresent(st -> ran.put(Long.parseLong(st.get("pid")), st.get("links")));
    }
    // The new build's server ran the new link; the old one (if it has not retired yet, having
    // found its files changed) ran the old link only.
    assertEquals(
        1,
        ran.entrySet().stream().filter(e -> e.getKey() != old && e.getValue().equals("1")).count(),
        "a server of its own for the new build: " + ran);
    assertTrue(!ran.containsKey(old) || ran.get(old).equals("1"), "the old server: " + ran);
    assertTrue(
        ProcessHandle.of(old)
            .map(p -> p.onExit().orTimeout(30, TimeUnit.SECONDS).handle((x, e) -> e == null).join())
            .orElse(true),
        "the old server did not retire");
  }

  /**
   * {@value #SOAK_LINKS} links, four at a time, with the device-image cache on: about one in eight
   * clients gets SIGINT or SIGTERM at a random moment, and every 25th link the server is SIGKILLed.
   * Afterwards nothing is left in TMPDIR or as a cache temporary, no link's child runs, the
   * server's descriptors are back at their idle count and its resident memory bounded, and every
   * link that said it succeeded wrote the right program.
   */
  @Test
  void soakWithSignalsAndServerKills() throws Exception {
    Path work = Files.createDirectories(scratch.resolve("soak"));
    Path tmp = Files.createDirectories(work.resolve("tmp"));
    Path cache = Files.createDirectories(work.resolve("cache"));
    Path folder = folder("soak");
    Path tree = Toolchain.offlinkDist();
    Map<String, String> env = env(folder, tmp);
    env.put("OFFLINK_CACHE_DIR", cache.toString());
    Outcome ref = run(builder(link(tree, dir(work, "reference")), env, work));
    assertEquals(0, ref.status(), ref.output());
    byte[] reference = Files.readAllBytes(program(work, "reference"));
    assertRegistersAsStock(program(work, "reference"));
    Map<String, String> idle = settledStatus(folder);
    long idleFds = Long.parseLong(idle.get("open_fds"));
    Map<String, Long> idleKinds = descriptorKinds(idle.get("pid"));

    Random random = new Random(30);
    AtomicInteger ok = new AtomicInteger();
    AtomicInteger signalled = new AtomicInteger();
    AtomicInteger serverDied = new AtomicInteger();
    Map<Integer, String> wrong = new ConcurrentHashMap<>();
    Map<Integer, String> outcomes = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<?>> runs = new ArrayList<>();
    AtomicInteger signalsSent = new AtomicInteger();
    for (int i = 0; i < SOAK_LINKS; i++) {
      int n = i;
      int signal = random.nextInt(8) == 0 ? (random.nextBoolean() ? 2 : 15) : 0;
      int delayMs = random.nextInt(300);
      // Often enough that a leak in one link in 60 lost with their server shows: kills every 100th
      // link passed CI with a file made just before the kill left now and then.
      boolean killServer = n % 25 == 12;
      runs.add(
          pool.submit(
              () -> {
                String out = dir(work, "out-" + n);
                // A TMPDIR per link: whatever is left names the link that left it.
                Map<String, String> linkEnv = new HashMap<>(env);
                linkEnv.put("TMPDIR", Files.createDirectories(tmp.resolve("l" + n)).toString());
                Process p = builder(link(tree, out), linkEnv, work).start();
                if (killServer || signal != 0) {
                  // Once the link client runs, a random moment into the link.
                  Optional<ProcessHandle> client = awaitClient(p);
                  Thread.sleep(delayMs);
                  if (killServer) {
                    killServer(folder);
                  } else if (client.isPresent()) {
                    signal(client.get().pid(), signal);
                    signalsSent.incrementAndGet();
                  }
                }
                String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                p.waitFor();
                Path output = Path.of(out, Toolchain.EXECUTABLE);
                outcomes.put(
                    n,
                    "exit "
                        + p.exitValue()
                        + (signal != 0 ? ", signal " + signal : "")
                        + (killServer ? ", server killed" : "")
                        + ": "
                        + text.lines()
                            .filter(l -> l.contains("lto-wrapper"))
                            .findFirst()
                            .orElse(""));
                if (p.exitValue() == 0) {
                  if (!java.util.Arrays.equals(reference, Files.readAllBytes(output))) {
                    wrong.put(n, "succeeded with another program");
                  }
                  ok.incrementAndGet();
                } else if (text.contains("ended during the link")) {
                  serverDied.incrementAndGet();
                } else if (signal != 0 || killServer) {
                  signalled.incrementAndGet();
                } else {
                  wrong.put(n, "exit " + p.exitValue() + ": " + text);
                }
                Files.deleteIfExists(output);
                return null;
              }));
    }
    for (Future<?> f : runs) {
      f.get(30, TimeUnit.MINUTES);
    }
    pool.shutdown();
    assertEquals(Map.of(), wrong);
    assertTrue(ok.get() > SOAK_LINKS / 2, "links that succeeded: " + ok);
    assertTrue(signalled.get() > SOAK_LINKS / 50, "links that a signal ended: " + signalled);

    // Settled: no child of a cancelled link or of a killed server runs, nothing is left over.
    long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!processesIn(work).isEmpty() && System.nanoTime() < settle) {
      Thread.sleep(50);
    }
    Map<String, String> left = new java.util.TreeMap<>();
    try (Stream<Path> dirs = Files.list(tmp)) {
      for (Path d : dirs.toList()) {
        try (Stream<Path> files = Files.list(d)) {
          // Each file with its size and first line: whose it is (x86 or PTX assembly, ...).
          List<String> names = files.map(LinkServerIT::describe).sorted().toList();
          if (!names.isEmpty()) {
            int n = Integer.parseInt(d.getFileName().toString().substring(1));
            left.put(d.getFileName() + " (" + outcomes.get(n) + ")", names.toString());
          }
        }
      }
    }
    assertEquals(Map.of(), left, "files left in the links' TMPDIRs");
    assertEquals(List.of(), processesIn(work), "processes left behind");
    try (Stream<Path> all = Files.walk(cache)) {
      List<Path> temps = all.filter(f -> f.getFileName().toString().endsWith(".tmp")).toList();
      assertEquals(List.of(), temps, "cache temporaries left");
    }
    // One more link, then the (latest) server's descriptors and memory.
    assertEquals(0, run(builder(link(tree, dir(work, "last")), env, work)).status());
    // A leaked descriptor stays; a connection the server has not yet closed goes within moments.
    Map<String, String> s = status(folder);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (Long.parseLong(s.get("open_fds")) > idleFds && System.nanoTime() < deadline) {
      Thread.sleep(100);
      s = status(folder);
    }
    if (Long.parseLong(s.get("open_fds")) > idleFds) {
      fail(
          "descriptors: "
              + s
              + " idle "
              + idleFds
              + "; against the first server's: "
              + difference(descriptorKinds(s.get("pid")), idleKinds));
    }
    assertTrue(Long.parseLong(s.get("rss_kib")) < 1024 * 1024, "resident memory: " + s);
    System.out.printf(
        "soak: %d links, %d signals sent, %d succeeded, %d ended by a signal, %d lost with their"
            + " server; server %s; its descriptors against the first server's at idle: %s%n",
        SOAK_LINKS,
        signalsSent.get(),
        ok.get(),
        signalled.get(),
        serverDied.get(),
        s,
        difference(descriptorKinds(s.get("pid")), idleKinds));
  }

  /**
   * The link client among {@code link}'s descendants, once it runs (empty if the link ends first).
   */
  /** {@code name (N bytes: first line)}: enough to tell which program left a file. */
  private static String describe(Path file) {
    String name = file.getFileName().toString();
    try {
      byte[] bytes = Files.readAllBytes(file);
      String text = new String(bytes, 0, Math.min(bytes.length, 200), StandardCharsets.ISO_8859_1);
      return name + " (" + bytes.length + " bytes: " + text.lines().findFirst().orElse("") + ")";
    } catch (IOException e) {
      return name + " (" + e.getMessage() + ")";
    }
  }

  private static Optional<ProcessHandle> awaitClient(Process link) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (link.isAlive() && System.nanoTime() < deadline) {
      Optional<ProcessHandle> client =
          link.toHandle()
              .descendants()
              .filter(h -> h.info().command().orElse("").endsWith("/libexec/offlink/lto-wrapper"))
              .findFirst();
      if (client.isPresent()) {
        return client;
      }
      Thread.sleep(5);
    }
    return Optional.empty();
  }

  private static void killServer(Path folder) throws IOException {
    try {
      ProcessHandle.of(Long.parseLong(status(folder).get("pid")))
          .ifPresent(ProcessHandle::destroyForcibly);
    } catch (IOException noneRightNow) {
      // between servers: the next link starts one
    }
  }

  private static void signal(long pid, int signal) {
    try {
      new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start().waitFor();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
