package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Faults injected into real links (issue 18, items 1, 2, 4, 6, 7): lto-wrapper, mkoffload and
 * section-streamer killed with SIGTERM/SIGINT at several moments, a tiny tmpfs and an unwritable
 * {@code TMPDIR} (as user {@code nobody} through {@code setpriv}), device, FIFO and symlink
 * outputs, concurrent links, and a {@code noexec} {@code /tmp} (in a private mount namespace). Each
 * asserts what a user would check: no temporary file left, no half-written output, a one-line
 * message naming the path and the system's reason, and the exit status. Stock GCC 12 runs with
 * {@code PATH=/usr/bin:/bin} (its ptxas is not CUDA 13's). Needs root (mknod, mount, setpriv).
 */
@Isolated // signals are timed against real links: no other test's processes compete
@Execution(ExecutionMode.SAME_THREAD)
class FaultInjectionIT {
  /** {@code -Dfault.dist=DIR} runs the suite against another build (e.g. one from before a fix). */
  private static final Path DIST =
      OtherUsers.tree(
          Path.of(System.getProperty("fault.dist", System.getProperty("offlink.dist"))));

  private static final Path LIBEXEC = DIST.resolve("libexec/offlink");
  private static final String JAVA =
      Path.of(System.getProperty("java.home"), "bin", "java").toString();

  /** World-accessible, so that user nobody can work in it. */
  private static Path work;

  private static Path object;

  @BeforeAll
  static void compile() throws Exception {
    // Not under /tmp: one test mounts a private noexec tmpfs over it. Searchable by nobody.
    work = OtherUsers.folder(Path.of("target", "fault-injection"));
    run(Path.of(".").toAbsolutePath(), Map.of(), "rm", "-rf", work.toString());
    Files.createDirectories(work);
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path src = work.resolve("saxpy.c");
    Files.copy(Path.of(System.getProperty("offlink.root", ".."), "examples/saxpy.c"), src);
    object = work.resolve("saxpy.o");
    Result r =
        run(
            work,
            Map.of(),
            "gcc-12",
            "-fopenmp",
            "-foffload=nvptx-none,amdgcn-amdhsa",
            "-foffload-options=amdgcn-amdhsa=-march=gfx906",
            "-c",
            src.toString(),
            "-o",
            object.toString());
    assertEquals(0, r.status(), r.output());
    Files.setPosixFilePermissions(object, PosixFilePermissions.fromString("rw-r--r--"));
    Result sections = run(work, Map.of(), "readelf", "-SW", object.toString());
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("\\.gnu\\.offload_lto_\\.decls\\.[0-9a-f]+")
            .matcher(sections.output());
    assertTrue(m.find(), sections.output());
    declsSection = m.group();
  }

  /** A zstd-compressed offload IR section of the object (its name carries a random hash). */
  private static String declsSection;

  @AfterAll
  static void removeWork() throws Exception {
    if (work != null) {
      run(work.getParent(), Map.of(), "rm", "-rf", work.toString());
    }
  }

  record Result(int status, String output) {}

  private static ProcessBuilder builder(Path cwd, Map<String, String> env, List<String> argv) {
    // A JVM started from a background job inherits SIGINT (and under nohup SIGHUP) ignored, and
    // offlink, like GCC, leaves an ignored signal ignored: give every command the default actions
    // so that the signals these tests send mean the same wherever the suite runs.
    List<String> withDefaults = new ArrayList<>(List.of("env", "--default-signal=HUP,INT,TERM"));
    withDefaults.addAll(argv);
    ProcessBuilder pb =
        new ProcessBuilder(withDefaults).directory(cwd.toFile()).redirectErrorStream(true);
    Map<String, String> e = pb.environment();
    e.clear();
    e.put("PATH", Toolchain.SAFE_PATH);
    e.put("LANG", "C");
    e.put("OFFLINK_JAVA", JAVA);
    e.putAll(env);
    LinkMode.apply(e);
    return pb;
  }

  private static Result run(Path cwd, Map<String, String> env, String... argv)
      throws IOException, InterruptedException {
    Process p = builder(cwd, env, List.of(argv)).start();
    return finish(p);
  }

  private static Result finish(Process p) throws IOException, InterruptedException {
    CompletableFuture<String> out = slurp(p.getInputStream());
    assertTrue(p.waitFor(240, TimeUnit.SECONDS), "timed out");
    return new Result(p.exitValue(), out.join());
  }

  private static CompletableFuture<String> slurp(InputStream in) {
    return CompletableFuture.supplyAsync(
        () -> {
          try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  private static List<String> link(Path out, String... extra) {
    List<String> argv =
        new ArrayList<>(
            List.of(
                "gcc-12",
                "-B",
                LIBEXEC + "/",
                "-fopenmp",
                "-foffload=nvptx-none,amdgcn-amdhsa",
                "-foffload-options=amdgcn-amdhsa=-march=gfx906"));
    argv.addAll(List.of(extra));
    argv.addAll(List.of(object.toString(), "-o", out.toString()));
    return argv;
  }

  private static Path freshDir(String name) throws IOException {
    Path d = work.resolve(name);
    Files.createDirectories(d);
    Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxrwxrwx"));
    return d;
  }

  private static List<String> listing(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /**
   * The lto-wrapper process that the link of {@code gcc} runs {@code child} for: the one to signal,
   * as a user's ^C or a build system's kill reaches it.
   *
   * <p>In-process, the accel compiler's parent is the lto-wrapper JVM (mkoffload runs in-process),
   * whose parent is the lto-wrapper launcher. Found through a running accel compiler: a child the
   * JVM is still spawning shows the JVM's own command line for a moment, so "LtoWrapperMain" alone
   * could name that child. Through the server, it is the link client that the linker started.
   */
  private static Optional<ProcessHandle> wrapperOf(Process gcc, ProcessHandle child) {
    if (LinkMode.current() == LinkMode.IN_PROCESS) {
      return child
          .parent()
          .filter(h -> cmdline(h).contains("LtoWrapperMain"))
          .map(FaultInjectionIT::launcherOf);
    }
    return gcc.toHandle()
        .descendants()
        .filter(h -> cmdline(h).split("\0", 2)[0].endsWith("/lto-wrapper"))
        .findFirst();
  }

  /** The launcher of the JVM {@code jvm} (its sh parent), or the JVM itself without one. */
  private static ProcessHandle launcherOf(ProcessHandle jvm) {
    return jvm.parent().filter(p -> cmdline(p).startsWith("/bin/sh\0")).orElse(jvm);
  }

  private static String cmdline(ProcessHandle h) {
    return proc(h, "cmdline");
  }

  /** /proc/PID/{@code file} of {@code h} ("" once it has gone or is not ours to read). */
  private static String proc(ProcessHandle h, String file) {
    try {
      return new String(
          Files.readAllBytes(Path.of("/proc", h.pid() + "", file)), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  /** The first descendant of {@code root} whose command line contains {@code marker}. */
  private static Optional<ProcessHandle> descendant(ProcessHandle root, String marker) {
    return root.descendants().filter(h -> cmdline(h).contains(marker)).findFirst();
  }

  /**
   * A child process of the link that {@code client} (the lto-wrapper GCC ran, or an ancestor of it)
   * runs with TMPDIR {@code tmp}, whose command line contains {@code marker}. In-process it is a
   * descendant of {@code client}; through the link server it is the server's child, found by the
   * TMPDIR the link's children inherit, or the folder in it that mkoffload gives its own children
   * (the server's own process may have TMPDIR too, when this link started the server: it is left
   * out by its main class).
   */
  private static Optional<ProcessHandle> linkChild(ProcessHandle client, String marker, Path tmp) {
    if (LinkMode.current() == LinkMode.IN_PROCESS) {
      return descendant(client, marker);
    }
    String entry = "TMPDIR=" + tmp;
    return ProcessHandle.allProcesses()
        .filter(
            h -> {
              String cmd = cmdline(h);
              return cmd.contains(marker) && !cmd.contains("org.offlink.");
            })
        .filter(
            h ->
                Arrays.stream(proc(h, "environ").split("\0"))
                    .anyMatch(e -> e.equals(entry) || e.startsWith(entry + "/")))
        .findFirst();
  }

  /**
   * Waits until the link of {@code client} (TMPDIR {@code tmp}) runs a child with {@code marker} in
   * its command line; false if {@code client} ended first.
   */
  private static boolean awaitLinkChild(ProcessHandle client, String marker, Path tmp)
      throws InterruptedException {
    for (int i = 0; i < 12000 && client.isAlive(); i++) {
      if (linkChild(client, marker, tmp).isPresent()) {
        return true;
      }
      Thread.sleep(5);
    }
    return false;
  }

  private static void kill(long pid, String signal) throws IOException, InterruptedException {
    Result r = run(work, Map.of(), "kill", "-" + signal, Long.toString(pid));
    assertEquals(0, r.status(), "kill -" + signal + " " + pid + ": " + r.output());
  }

  private static void assertOneLineMessage(String output, String... parts) {
    assertFalse(output.contains("Exception"), output);
    assertFalse(output.contains("\tat "), output);
    for (String part : parts) {
      assertTrue(output.contains(part), "missing \"" + part + "\" in:\n" + output);
    }
  }

  // ---- item 6: signals ----------------------------------------------------------------------

  /**
   * lto-wrapper run as the linker plugin runs it, killed at several moments of a two-target
   * in-process build (an accel compiler driver started, the GCN one running, an accel {@code lto1}
   * running, the GCN link step's assembler waiting for the assembly the compile has not made yet):
   * its exit status is 128 + the signal, its children are ended, and neither its temporary files
   * (response files, target objects) nor the plugin's {@code .ofldlist} (lto-wrapper's to remove)
   * remain.
   */
  @Test
  void ltoWrapperKilledAtSeveralMomentsLeavesNothingAndExitsWith128PlusSignal() throws Exception {
    String[][] cases = {
      {"TERM", "-gcc-12"},
      {"INT", "amdgcn-amdhsa"},
      {"HUP", "/lto1"},
      {"TERM", "nvptx-none"},
      // the GCN link step's assembler, started beside the compile, waiting for its input
      {"INT", "/amdgcn-amdhsa/as"}
    };
    for (String[] c : cases) {
      // Not named after the marker: the launcher's own command line names this folder.
      Path tmp = freshDir("sig-" + c[0] + "-" + Math.abs(c[1].hashCode()));
      Path list = tmp.resolve("x.ofldlist");
      Files.writeString(list, "1\n" + object + "\n");
      String gccLib = run(work, Map.of(), "gcc-12", "-print-libgcc-file-name").output().trim();
      String cc1 = run(work, Map.of(), "gcc-12", "-print-prog-name=cc1").output().trim();
      Map<String, String> env = new HashMap<>();
      env.put("TMPDIR", tmp.toString());
      env.put("COLLECT_GCC", "gcc-12");
      env.put(
          "COLLECT_GCC_OPTIONS",
          "'-fopenmp' '-foffload=nvptx-none,amdgcn-amdhsa'"
              + " '-foffload-options=amdgcn-amdhsa=-march=gfx906' '-o' 'x'");
      env.put("OFFLOAD_TARGET_NAMES", "nvptx-none:amdgcn-amdhsa");
      env.put("COMPILER_PATH", LIBEXEC + "/:" + Path.of(cc1).getParent() + "/");
      env.put("LIBRARY_PATH", Path.of(gccLib).getParent() + "/");
      Process p =
          builder(
                  tmp,
                  env,
                  List.of(
                      LIBEXEC.resolve("lto-wrapper").toString(),
                      "-fresolution=x.res",
                      "-flinker-output=pie",
                      "-foffload-objects=" + list))
              .start();
      CompletableFuture<String> out = slurp(p.getInputStream());
      boolean running = awaitLinkChild(p.toHandle(), c[1], tmp);
      kill(p.pid(), c[0]);
      assertTrue(p.waitFor(60, TimeUnit.SECONDS));
      int signal = c[0].equals("TERM") ? 15 : c[0].equals("INT") ? 2 : 1;
      String what = "SIG" + c[0] + " while " + c[1] + " ran: " + out.join();
      assertTrue(running, what);
      assertEquals(128 + signal, p.exitValue(), what);
      // The accel compilers' own temporaries are theirs: they, too, are ended and clean up.
      Thread.sleep(300);
      assertEquals(List.of(), listing(tmp), what);
    }
  }

  /**
   * Whole gcc links with lto-wrapper killed while an accel compiler it started runs (SIGTERM while
   * the nvptx one runs, SIGINT while the GCN one runs): gcc fails naming lto-wrapper, the TMPDIR
   * ends empty (lto-wrapper's files, the plugin's list, the children's own temporaries) and no
   * program is written.
   */
  @Test
  void gccLinkWithLtoWrapperKilledLeavesAnEmptyTmpdir() throws Exception {
    String[][] cases = {{"TERM", "-accel-nvptx-none-"}, {"INT", "-accel-amdgcn-amdhsa-"}};
    for (String[] c : cases) {
      boolean landed = false;
      // A saxpy link is quick: when lto-wrapper has ended before the signal, the link succeeded
      // (and must have left nothing either); try again.
      for (int attempt = 0; attempt < 5 && !landed; attempt++) {
        landed = killOneLink(c[0], c[1], attempt);
      }
      assertTrue(landed, "SIG" + c[0] + ": every link ended before its signal");
    }
  }

  private static boolean killOneLink(String signal, String marker, int attempt) throws Exception {
    Path tmp = freshDir("gcc-" + signal + attempt);
    Path out = work.resolve("killed-" + signal + attempt);
    Process gcc = builder(work, Map.of("TMPDIR", tmp.toString()), link(out)).start();
    CompletableFuture<String> log = slurp(gcc.getInputStream());
    ProcessHandle wrapper = null;
    while (wrapper == null && gcc.isAlive()) {
      wrapper = linkChild(gcc.toHandle(), marker, tmp).flatMap(c -> wrapperOf(gcc, c)).orElse(null);
      Thread.sleep(2);
    }
    Result k =
        wrapper == null
            ? new Result(1, "not seen")
            : run(work, Map.of(), "kill", "-" + signal, Long.toString(wrapper.pid()));
    assertTrue(gcc.waitFor(120, TimeUnit.SECONDS));
    String what = "SIG" + signal + " (" + k.output().trim() + "): " + log.join();
    boolean landed = k.status() == 0 && gcc.exitValue() != 0;
    if (landed) {
      assertTrue(log.join().contains("lto-wrapper"), what);
      assertFalse(Files.exists(out), what);
    } else {
      assertEquals(0, gcc.exitValue(), what);
    }
    Thread.sleep(300);
    assertEquals(List.of(), listing(tmp), what);
    return landed;
  }

  /**
   * section-streamer killed (SIGTERM) while it copies a large section to its output's temporary:
   * exit status 143, no {@code .tmp}, no output. The copy can be fast, so the section grows until
   * the signal lands mid-copy.
   */
  @Test
  void sectionStreamerKilledMidWriteLeavesNoTemporary() throws Exception {
    Path dir = freshDir("streamer-kill");
    for (long mb : new long[] {256, 512, 1024}) {
      Path big = dir.resolve("big.bin");
      try (var f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
        f.setLength(mb << 20);
      }
      Path obj = dir.resolve("big.o");
      Result r =
          run(
              dir,
              Map.of(),
              "objcopy",
              "--add-section",
              ".big=" + big,
              object.toString(),
              obj.toString());
      Files.delete(big);
      assertEquals(0, r.status(), r.output());
      Path out = dir.resolve("out.bin");
      String ss = DIST.resolve("bin/section-streamer").toString();
      Process p =
          builder(
                  dir,
                  Map.of(),
                  List.of(ss, "extract", "-o", out.toString(), obj.toString(), ".big"))
              .start();
      CompletableFuture<String> log = slurp(p.getInputStream());
      boolean seen = false;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!seen && p.isAlive() && System.nanoTime() < deadline) {
        seen = listing(dir).stream().anyMatch(n -> n.startsWith(".out.bin.") && n.endsWith(".tmp"));
      }
      // SIGTERM, sent from this JVM at once; through the handle, since Process.destroy() also
      // closes the streams this test is still reading the output from.
      p.toHandle().destroy();
      assertTrue(p.waitFor(60, TimeUnit.SECONDS));
      if (seen && p.exitValue() == 143) {
        assertEquals(List.of("big.o"), listing(dir), log.join());
        Files.delete(obj);
        return;
      }
      assertEquals(0, p.exitValue(), mb + " MB: " + log.join()); // the copy won the race
      Files.delete(obj);
      Files.deleteIfExists(out);
      assertEquals(List.of(), listing(dir));
    }
    throw new AssertionError("the copy always finished before the signal");
  }

  // ---- item 4 and errors: unwritable and full temp directories -----------------------------

  /**
   * As user nobody, a TMPDIR that exists but is not writable: stock falls back to /tmp, so do we.
   */
  @Test
  void anUnwritableTmpdirFallsBackToTmpLikeStock() throws Exception {
    Path ro = freshDir("ro-tmp");
    Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
    Path outs = freshDir("ro-out");
    for (boolean offlink : List.of(false, true)) {
      Path out = outs.resolve(offlink ? "offlink" : "stock");
      List<String> argv =
          new ArrayList<>(
              List.of("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"));
      argv.addAll(offlink ? link(out) : stockLink(out));
      argv.add("-v");
      Process p = builder(work, Map.of("TMPDIR", ro.toString()), argv).start();
      Result r = finish(p);
      assertEquals(0, r.status(), (offlink ? "offlink: " : "stock: ") + r.output());
      assertTrue(Files.isRegularFile(out));
      // nobody ran offlink's lto-wrapper, not GCC's own (which GCC falls back to, silently, when
      // nobody cannot reach the -B folder)
      assertEquals(
          offlink, r.output().contains(LIBEXEC + "/lto-wrapper "), "the lto-wrapper -v shows");
    }
    assertEquals(List.of(), listing(ro));
  }

  private static List<String> stockLink(Path out) {
    List<String> argv = link(out);
    argv.subList(1, 3).clear(); // no -B
    return argv;
  }

  /**
   * A TMPDIR on a 256 KB tmpfs: the link fails with one line naming the file and "No space left on
   * device", and leaves the tmpfs empty.
   */
  @Test
  void aFullTmpdirFailsWithOneLineNamingPathAndReason() throws Exception {
    Path tiny = freshDir("tiny");
    assertEquals(
        0,
        run(work, Map.of(), "mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", tiny.toString())
            .status());
    try {
      Path out = work.resolve("tiny.out");
      Result r = run(work, Map.of("TMPDIR", tiny.toString()), link(out).toArray(String[]::new));
      assertTrue(r.status() != 0, r.output());
      assertOneLineMessage(r.output(), "No space left on device");
      assertFalse(Files.exists(out));
      assertEquals(List.of(), listing(tiny), r.output());
    } finally {
      run(work, Map.of(), "umount", tiny.toString());
    }
  }

  /**
   * Issue 27: TMPDIR filling up at every point of a link (a tmpfs with less and less room left):
   * each of offlink's own lines that reports "No space left on device" names the file it could not
   * write (was {@code mkoffload: fatal error: No space left on device}), and the tmpfs ends empty.
   * GCC's own tools (the accel {@code as} and {@code ld}) say what they say.
   */
  @Test
  void aTmpdirFillingUpAnywhereNamesTheFile() throws Exception {
    Path tiny = freshDir("filling");
    assertEquals(
        0,
        run(work, Map.of(), "mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", tiny.toString())
            .status());
    int ownLines = 0;
    try {
      for (int free = 200; free <= 1400; free += 150) {
        Path filler = tiny.resolve("filler");
        run(work, Map.of(), "fallocate", "-l", (2048 - free) + "k", filler.toString());
        Path tmp = Files.createDirectories(tiny.resolve("t"));
        Path out = work.resolve("filling.out");
        Result r =
            run(
                work,
                Map.of("TMPDIR", tmp.toString(), "OFFLINK_FLAGS", "--no-cache"),
                link(out).toArray(String[]::new));
        for (String line : r.output().lines().toList()) {
          if (line.contains("No space left on device")
              && (line.startsWith("mkoffload:") || line.startsWith("lto-wrapper:"))) {
            ownLines++;
            assertTrue(line.contains(tmp.toString()), free + " KB free: " + line);
          }
        }
        assertOneLineMessage(r.output());
        assertEquals(List.of(), listing(tmp), free + " KB free: " + r.output());
        Files.delete(tmp);
        Files.delete(filler);
      }
    } finally {
      run(work, Map.of(), "umount", tiny.toString());
    }
    assertTrue(ownLines > 0, "offlink itself met a full TMPDIR at least once");
  }

  /**
   * Issue 27: lto-wrapper killed in its first moments, before its JVM can clean up: exit status
   * 143, no "Runtime.exit(143) logging failed" (the JDK's, on a SIGTERM in its first milliseconds),
   * and the plugin's {@code .ofldlist}, which is lto-wrapper's to remove, gone from TMPDIR (it
   * stayed) - unless -save-temps keeps it. The launcher ends a JVM that is not ready yet and
   * removes the list itself.
   */
  @Test
  void ltoWrapperKilledBeforeItsJvmIsReadyLeavesNoListAndNoJdkNoise() throws Exception {
    int signalled = 0;
    for (int delayMs : new int[] {0, 3, 10, 20, 40, 80}) {
      for (boolean saveTemps : new boolean[] {false, true}) {
        Path tmp = freshDir("early-" + delayMs + (saveTemps ? "-s" : ""));
        Path list = tmp.resolve("x.ofldlist");
        Process p = startListLink(tmp, list, saveTemps);
        CompletableFuture<String> out = slurp(p.getInputStream());
        awaitTermHandler(p.pid());
        Thread.sleep(delayMs);
        // SIGTERM, unless the link has ended (and been reaped) already.
        boolean sent = p.toHandle().destroy();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        String what = "SIGTERM after " + delayMs + " ms" + (saveTemps ? " (-save-temps)" : "");
        if (LinkMode.current() == LinkMode.SERVER && p.exitValue() == 0) {
          // A warm server has no JVM to start: its link can end before the later signals, and
          // must then have ended as a link does, with its list removed.
          assertFalse(out.join().contains("Runtime.exit"), what + ": " + out.join());
          assertEquals(saveTemps, Files.exists(list), what + ": the list after a whole link");
          continue;
        }
        assertTrue(sent, what + ": the link ended before the signal: " + out.join());
        signalled++;
        assertEquals(143, p.exitValue(), what + ": " + out.join());
        assertFalse(out.join().contains("Runtime.exit"), what + ": " + out.join());
        assertOneLineMessage(out.join());
        if (saveTemps) {
          assertTrue(Files.exists(list), what + ": -save-temps keeps the list");
        } else {
          assertEquals(List.of(), listing(tmp), what);
        }
      }
    }
    assertTrue(signalled >= 2, "only " + signalled + " links were still running at the signal");
  }

  /**
   * Starts lto-wrapper as the linker plugin does, on an nvptx object named by the plugin's list
   * {@code list} (written here), with TMPDIR {@code tmp}. -save-temps files go to a working
   * directory of their own: not the TMPDIR whose listing the tests check.
   */
  private static Process startListLink(Path tmp, Path list, boolean saveTemps) throws IOException {
    Files.writeString(list, "1\n" + object + "\n");
    Path rsp = tmp.resolveSibling(tmp.getFileName() + ".rsp");
    Files.writeString(rsp, "-flinker-output=pie\n-foffload-objects=" + list + "\n");
    Map<String, String> env = new HashMap<>();
    env.put("TMPDIR", tmp.toString());
    env.put("COLLECT_GCC", "gcc-12");
    env.put(
        "COLLECT_GCC_OPTIONS",
        "'-fopenmp' '-foffload=nvptx-none' '-o' 'x'" + (saveTemps ? " '-save-temps'" : ""));
    env.put("OFFLOAD_TARGET_NAMES", "nvptx-none");
    env.put("COMPILER_PATH", LIBEXEC + "/");
    Path cwd = freshDir(tmp.getFileName() + "-cwd");
    return builder(cwd, env, List.of(LIBEXEC.resolve("lto-wrapper").toString(), "@" + rsp)).start();
  }

  /**
   * A SIGTERM the moment lto-wrapper has printed its offload object for the linker: either the link
   * had ended (status 0, the object is the linker's) or it is cancelled (143), and then the object
   * goes too, as GCC's {@code tool_cleanup} removes what lto-wrapper printed. Through the server,
   * the cancel used to report 143 and leave the object in TMPDIR, about one link in two.
   */
  @Test
  void aSignalJustAfterTheOutputIsPrintedLeavesItOnlyWithSuccess() throws Exception {
    for (int round = 0; round < 8; round++) {
      Path tmp = freshDir("printed-" + round);
      Process p = startListLink(tmp, tmp.resolve("x.ofldlist"), false);
      java.io.BufferedReader lines =
          new java.io.BufferedReader(
              new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String printed = lines.readLine();
      p.toHandle().destroy();
      CompletableFuture<String> rest = slurp(p.getInputStream());
      assertTrue(p.waitFor(60, TimeUnit.SECONDS));
      String what = "round " + round + ", status " + p.exitValue() + ": " + printed + rest.join();
      assertTrue(printed != null && printed.endsWith(".target.o"), what);
      if (p.exitValue() == 0) {
        assertEquals(List.of(Path.of(printed).getFileName().toString()), listing(tmp), what);
      } else {
        assertEquals(143, p.exitValue(), what);
        assertEquals(List.of(), listing(tmp), what);
      }
    }
  }

  /**
   * Waits until process {@code pid} catches SIGTERM ({@code SigCgt} in /proc), or has exited. A
   * signal that comes before a program's first instruction (while the kernel and the dynamic loader
   * start it) meets the default action, whatever the program does: stock GCC's lto-wrapper too. The
   * delays above count from the moment the link client can take one; under load that moment can
   * come well after {@code Process.start} returns, which is how a SIGTERM "after 0 ms" once left
   * the list behind.
   */
  private static void awaitTermHandler(long pid) throws Exception {
    Path status = Path.of("/proc/" + pid + "/status");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      List<String> lines;
      try {
        lines = Files.readAllLines(status);
      } catch (IOException e) {
        return; // it has exited
      }
      for (String line : lines) {
        if (line.startsWith("SigCgt:")
            && (Long.parseUnsignedLong(line.substring(7).strip(), 16) & (1L << (15 - 1))) != 0) {
          return;
        }
      }
      Thread.sleep(0, 200_000);
    }
    fail("process " + pid + " never caught SIGTERM");
  }

  /** A read-only output directory (as nobody): one line naming the output and the reason. */
  @Test
  void aReadOnlyOutputDirectoryIsOneLineNamingTheOutput() throws Exception {
    Path ro = freshDir("ro-out-dir");
    Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
    Path out = ro.resolve("sec.bin");
    Result r =
        run(
            work,
            Map.of(),
            "setpriv",
            "--reuid=nobody",
            "--regid=nogroup",
            "--clear-groups",
            DIST.resolve("bin/section-streamer").toString(),
            "extract",
            "-o",
            out.toString(),
            object.toString(),
            ".gnu.offload_lto_.opts");
    assertEquals(1, r.status(), r.output());
    assertEquals("section-streamer: error: " + out + ": permission denied\n", r.output());
  }

  // ---- item 1: outputs that are devices, FIFOs, symlinks ------------------------------------

  @Test
  void aDeviceReportOutputStaysADevice() throws Exception {
    Path dev = freshDir("dev").resolve("null");
    assertEquals(
        0, run(work, Map.of(), "mknod", "-m", "666", dev.toString(), "c", "1", "3").status());
    Path out = work.resolve("dev.out");
    Result r =
        run(
            work,
            Map.of("OFFLINK_REPORT", dev.toString(), "TMPDIR", freshDir("dev-tmp").toString()),
            link(out).toArray(String[]::new));
    assertEquals(0, r.status(), r.output());
    assertTrue(attributes(dev).isOther(), "the device became a " + kind(dev));
    assertEquals(List.of("null"), listing(dev.getParent()));
  }

  @Test
  void fifoAndSymlinkOutputsOfSectionStreamerAreWrittenThrough() throws Exception {
    Path dir = freshDir("fifo");
    Path fifo = dir.resolve("pipe");
    assertEquals(0, run(dir, Map.of(), "mkfifo", fifo.toString()).status());
    CompletableFuture<byte[]> read =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return Files.readAllBytes(fifo);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    String section = ".gnu.offload_lto_.opts";
    Path plain = dir.resolve("plain.bin");
    String ss = DIST.resolve("bin/section-streamer").toString();
    assertEquals(
        0,
        run(dir, Map.of(), ss, "extract", "-o", plain.toString(), object.toString(), section)
            .status());
    Result r = run(dir, Map.of(), ss, "extract", "-o", fifo.toString(), object.toString(), section);
    assertEquals(0, r.status(), r.output());
    assertTrue(attributes(fifo).isOther(), "the FIFO became a " + kind(fifo));
    assertTrue(java.util.Arrays.equals(Files.readAllBytes(plain), read.get(30, TimeUnit.SECONDS)));

    Path target = dir.resolve("target.bin");
    Files.writeString(target, "old");
    Path link = Files.createSymbolicLink(dir.resolve("link.bin"), target.getFileName());
    r = run(dir, Map.of(), ss, "extract", "-o", link.toString(), object.toString(), section);
    assertEquals(0, r.status(), r.output());
    assertTrue(Files.isSymbolicLink(link));
    assertTrue(java.util.Arrays.equals(Files.readAllBytes(plain), Files.readAllBytes(target)));
    assertEquals(List.of("link.bin", "pipe", "plain.bin", "target.bin"), listing(dir));
  }

  private static BasicFileAttributes attributes(Path p) throws IOException {
    return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
  }

  private static String kind(Path p) throws IOException {
    BasicFileAttributes a = attributes(p);
    return a.isRegularFile() ? "regular file" : a.isDirectory() ? "directory" : "special file";
  }

  // ---- concurrency and item 7 --------------------------------------------------------------

  /** Three links at once sharing one TMPDIR: all succeed, identical output, nothing left. */
  @Test
  void concurrentLinksShareATmpdirCleanly() throws Exception {
    Path tmp = freshDir("concurrent-tmp");
    List<Process> ps = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ps.add(
          builder(
                  work,
                  Map.of("TMPDIR", tmp.toString()),
                  link(work.resolve("c" + i), "-Wl,--build-id=none"))
              .start());
    }
    for (Process p : ps) {
      Result r = finish(p);
      assertEquals(0, r.status(), r.output());
    }
    byte[] first = Files.readAllBytes(work.resolve("c0"));
    for (int i = 1; i < 3; i++) {
      assertTrue(java.util.Arrays.equals(first, Files.readAllBytes(work.resolve("c" + i))));
    }
    assertEquals(List.of(), listing(tmp));
  }

  /**
   * A noexec /tmp (private mount namespace) and no TMPDIR: zstd-jni cannot load its library from
   * there, and the pure-Java decoder reads GCC's zstd LTO section instead.
   */
  @Test
  void aNoexecTmpStillDecodesZstdSections() throws Exception {
    Path script = work.resolve("noexec-tmp.sh");
    try (InputStream in = FaultInjectionIT.class.getResourceAsStream("/fault/noexec-tmp.sh")) {
      Files.copy(in, script);
    }
    String ss = DIST.resolve("bin/section-streamer").toString();
    String section = declsSection;
    Result plain = run(work, Map.of(), ss, "dump", "--decompress", object.toString(), section);
    assertEquals(0, plain.status(), plain.output());
    Result r =
        run(
            work,
            Map.of(),
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "sh",
            script.toString(),
            ss,
            "dump",
            "--decompress",
            object.toString(),
            section);
    assertEquals(0, r.status(), r.output());
    assertEquals(plain.output(), r.output());
  }

  /** JDK 25 prints no "restricted method" warning when zstd-jni loads its library. */
  @Test
  void jdk25PrintsNoRestrictedMethodWarning() throws Exception {
    Path jdk25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(jdk25), "no JDK 25");
    Result r =
        run(
            work,
            Map.of("OFFLINK_JAVA", jdk25.toString()),
            DIST.resolve("bin/section-streamer").toString(),
            "dump",
            "--decompress",
            object.toString(),
            declsSection);
    assertEquals(0, r.status(), r.output());
    assertFalse(r.output().contains("WARNING"), r.output());
  }
}
