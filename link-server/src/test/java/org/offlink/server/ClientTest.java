package org.offlink.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The C client (under AddressSanitizer and UndefinedBehaviorSanitizer) against an in-process server
 * running a {@link FakeExecutor}: what it sends, what it relays, how it cancels, and when it runs
 * the link the old way instead. Every run also checks that the sanitizers found nothing.
 */
class ClientTest {
  @TempDir Path tmp;
  private ClientTree tree;
  private FakeExecutor executor;
  private ClientTree.Running server;

  @BeforeEach
  void start() throws Exception {
    tree = ClientTree.create(tmp);
    executor = new FakeExecutor(ClientTree.NATIVE.resolve("offlink-exec"));
    server = tree.serve(executor, Map.of());
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.stop();
  }

  private ClientTree.Result run(String tool, List<String> args, Map<String, String> extra)
      throws Exception {
    Map<String, String> env = tree.environment();
    env.putAll(extra);
    ClientTree.Result r = tree.run(tool, args, env, "");
    assertClean(r.err());
    return r;
  }

  static void assertClean(String stderr) {
    assertFalse(stderr.contains("Sanitizer"), stderr);
    assertFalse(stderr.contains("runtime error"), stderr);
  }

  @Test
  void relaysStdoutStderrAndStatus() throws Exception {
    ClientTree.Result r = run("lto-wrapper", List.of("echo", "a", "b c"), Map.of());
    assertEquals(0, r.status(), r.err());
    assertEquals("a b c\n", r.out());
    assertEquals("to stderr\n", r.err());
    assertEquals(7, run("lto-wrapper", List.of("exit", "7"), Map.of()).status());
    assertEquals(255, run("lto-wrapper", List.of("exit", "255"), Map.of()).status());
  }

  @Test
  void sendsTheWholeEnvironmentFolderUmaskAndTool() throws Exception {
    assertEquals(
        "x=y z\n", run("lto-wrapper", List.of("env", "SOME"), Map.of("SOME", "x=y z")).out());
    assertEquals("\n", run("lto-wrapper", List.of("env", "EMPTY"), Map.of("EMPTY", "")).out());
    ClientTree.Result facts = run("accel/nvptx-none/mkoffload", List.of("facts"), Map.of());
    assertTrue(facts.out().contains("cwd=" + tree.work + "\n"), facts.out());
    assertTrue(facts.out().contains("umask=22\n"), facts.out()); // the JVM's children's umask
    assertTrue(facts.out().contains("tool=accel/nvptx-none/mkoffload\n"), facts.out());
    assertTrue(
        facts.out().contains("argv0=" + tree.tool("accel/nvptx-none/mkoffload")), facts.out());
  }

  @Test
  void relaysLargeOutputInOrder() throws Exception {
    ClientTree.Result r = run("lto-wrapper", List.of("big", "1000000"), Map.of());
    assertEquals(0, r.status());
    assertEquals(1_000_000, r.out().length());
    assertEquals('a' + 999_999 % 26, r.out().charAt(999_999));
  }

  @Test
  void relaysStdinOnlyWhenTheLinkReadsIt() throws Exception {
    Map<String, String> env = tree.environment();
    ClientTree.Result r = tree.run("lto-wrapper", List.of("stdin"), env, "line one\nline two\n");
    assertEquals("line one\nline two\n", r.out());
    assertClean(r.err());
  }

  @Test
  void aSignalCancelsTheLinkAndExitsAsAJvmWould() throws Exception {
    for (String signal : List.of("INT", "TERM", "HUP")) {
      Process p = tree.start("lto-wrapper", List.of("wait"), tree.environment());
      awaitLine(p, "waiting");
      new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start().waitFor();
      ClientTree.Result r = ClientTree.finish(p, Duration.ofSeconds(20));
      int number = signal.equals("INT") ? 2 : signal.equals("TERM") ? 15 : 1;
      assertEquals(128 + number, r.status(), signal + ": " + r.err());
      assertFalse(r.out().contains("must not reach"), r.out());
      assertClean(r.err());
    }
    assertEquals(3, executor.events.stream().filter(e -> e.equals("cancelled wait")).count());
  }

  @Test
  void aSecondSignalOfAnotherKindWaitsForTheCancelAndTheSameOneDoesNot() throws Exception {
    // SIGHUP then SIGTERM, as offlink ends a server link's children (a mkoffload client among
    // them): the client still waits until its link's cancel is done.
    Process p = tree.start("lto-wrapper", List.of("slowcancel", "1500"), tree.environment());
    awaitLine(p, "waiting");
    new ProcessBuilder("kill", "-HUP", Long.toString(p.pid())).start().waitFor();
    Thread.sleep(200);
    new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor();
    ClientTree.Result r = ClientTree.finish(p, Duration.ofSeconds(20));
    assertEquals(129, r.status(), r.err());
    assertTrue(executor.events.contains("slow cancel done"), executor.events.toString());
    // SIGINT twice, a user's second Ctrl-C: the client stops waiting at once.
    executor.events.clear();
    p = tree.start("lto-wrapper", List.of("slowcancel", "2000"), tree.environment());
    awaitLine(p, "waiting");
    new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
    Thread.sleep(200);
    new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
    r = ClientTree.finish(p, Duration.ofSeconds(20));
    assertEquals(130, r.status(), r.err());
    assertFalse(executor.events.contains("slow cancel done"), executor.events.toString());
  }

  @Test
  void aClientKilledMidLinkCancelsItsLinkAndEndsItsChildren() throws Exception {
    Process p = tree.start("lto-wrapper", List.of("child"), tree.environment());
    String line = awaitLine(p, "child ");
    long child = Long.parseLong(line.substring(6).trim());
    assertTrue(ProcessHandle.of(child).isPresent());
    p.destroyForcibly().waitFor();
    // The cancel runs the link's actions in the order they were registered: the child is ended
    // (the executor's first action) before the link's own wait hears of it (its second).
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!(executor.events.contains("ended child " + child)
            && executor.events.contains("cancelled child"))
        && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertTrue(executor.events.contains("cancelled child"), executor.events.toString());
    assertTrue(executor.events.contains("ended child " + child), executor.events.toString());
  }

  @Test
  void runsTheLinkInItsOwnJvmWhenTheServerCannotBeUsed() throws Exception {
    Map<String, String> noServer = Map.of("OFFLINK_FLAGS", "--no-cache --no-server -v");
    ClientTree.Result r = run("lto-wrapper", List.of("echo", "x"), noServer);
    assertEquals(42, r.status());
    assertTrue(
        r.err()
            .contains(
                "in-process argv0="
                    + tree.tool("lto-wrapper")
                    + " mode=in-process (OFFLINK_FLAGS has --no-server) args=echo x"),
        r.err());
    String other = run("lto-wrapper", List.of("echo"), Map.of("OFFLINK_JAVA", "/bin/true")).err();
    assertTrue(other.contains("mode=in-process (OFFLINK_JAVA names another JVM"), other);
    // OFFLINK_JAVA naming the server's own JVM is no reason.
    assertEquals(
        0,
        run("lto-wrapper", List.of("echo"), Map.of("OFFLINK_JAVA", tree.java.toString())).status());
  }

  @Test
  void aJobserverPassedByDescriptorsStaysWithTheLink() throws Exception {
    Map<String, String> env = tree.environment();
    env.put("MAKEFLAGS", " -j4 --jobserver-auth=5,6");
    List<String> withFds =
        List.of(
            "/bin/sh",
            "-c",
            "exec 5</dev/null 6>/dev/null; exec \"$0\" echo",
            tree.tool("lto-wrapper").toString());
    ProcessBuilder pb = new ProcessBuilder(withFds).directory(tree.work.toFile());
    pb.environment().clear();
    pb.environment().putAll(env);
    ClientTree.Result r = ClientTree.finish(pb.start(), Duration.ofSeconds(60));
    assertTrue(r.err().contains("mode=in-process (MAKEFLAGS passes make's jobserver"), r.err());
    // Descriptors that are not open: GCC ignores such a jobserver, so the server can run the link.
    assertEquals(
        0,
        run("lto-wrapper", List.of("echo"), Map.of("MAKEFLAGS", "--jobserver-auth=5,6")).status());
    assertEquals(
        0,
        run("lto-wrapper", List.of("echo"), Map.of("MAKEFLAGS", "--jobserver-auth=fifo:/tmp/f"))
            .status());
  }

  @Test
  void refusesAServerFolderThatIsNotPrivate() throws Exception {
    Path open = Files.createDirectories(tmp.resolve("open"));
    Files.setPosixFilePermissions(
        open, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    ClientTree.Result r =
        run("lto-wrapper", List.of("echo"), Map.of("OFFLINK_SERVER_DIR", open.toString()));
    assertEquals(42, r.status());
    assertTrue(
        r.err()
            .contains(
                "lto-wrapper: warning: the server folder "
                    + open
                    + " has mode 755, not 700; linking in this process"),
        r.err());
    Path link = tmp.resolve("link");
    Files.createSymbolicLink(link, tree.folder);
    r = run("lto-wrapper", List.of("echo"), Map.of("OFFLINK_SERVER_DIR", link.toString()));
    assertEquals(42, r.status());
    assertTrue(r.err().contains("is not a folder (a symlink?); linking in this process"), r.err());
  }

  @Test
  void runsInItsOwnJvmWhenStdoutIsClosed() throws Exception {
    Map<String, String> env = tree.environment();
    ProcessBuilder pb =
        new ProcessBuilder(
                "/bin/sh", "-c", "exec \"$0\" echo >&-", tree.tool("lto-wrapper").toString())
            .directory(tree.work.toFile());
    pb.environment().clear();
    pb.environment().putAll(env);
    ClientTree.Result r = ClientTree.finish(pb.start(), Duration.ofSeconds(60));
    assertTrue(r.err().contains("mode=in-process (stdin, stdout or stderr is closed)"), r.err());
  }

  @Test
  void aServerThatCannotStartIsNotTriedAgainForAMinute() throws Exception {
    // Other JVM options are another identity, whose server (the test tree's script) fails to
    // start: the client warns, runs the link itself and, for a minute, does not try again.
    Map<String, String> env = Map.of("JAVA_TOOL_OPTIONS", "-Dfail-start");
    ClientTree.Result first = run("lto-wrapper", List.of("echo"), env);
    assertEquals(42, first.status());
    assertTrue(
        first.err().contains("lto-wrapper: warning: the offlink link server did not start"),
        first.err());
    ClientTree.Result second = run("lto-wrapper", List.of("echo"), env);
    assertEquals(42, second.status());
    assertFalse(second.err().contains("warning"), second.err());
    assertTrue(second.err().contains("failed to start less than a minute ago"), second.err());
    // The server of the plain identity still serves.
    assertEquals(0, run("lto-wrapper", List.of("echo"), Map.of()).status());
  }

  @Test
  void aNewBuildNeverUsesTheOldServer() throws Exception {
    String self = "server=" + ProcessHandle.current().pid() + "\n";
    assertTrue(run("lto-wrapper", List.of("facts"), Map.of()).out().contains(self));
    // A jar of the installation changes (a rebuild): the client starts a server of its own.
    Path jar = tree.root.resolve("lib/fake.jar");
    Files.writeString(jar, "rebuilt");
    ClientTree.Result r = run("lto-wrapper", List.of("facts"), Map.of());
    assertEquals(0, r.status(), r.err());
    assertFalse(r.out().contains(self), r.out());
    long started = Long.parseLong(r.out().replaceAll("(?s).*server=(\\d+).*", "$1"));
    try {
      // ...and the old server, finding its installation changed, retires.
      server.thread().join(20_000);
      assertFalse(server.thread().isAlive(), "the old server is still running");
    } finally {
      ProcessHandle.of(started).ifPresent(ProcessHandle::destroy);
    }
  }

  static String awaitLine(Process p, String prefix) throws java.io.IOException {
    StringBuilder line = new StringBuilder();
    var in = p.getInputStream();
    while (true) {
      int c = in.read();
      if (c < 0) {
        throw new java.io.IOException("no line starting with '" + prefix + "'");
      }
      if (c == '\n') {
        if (line.toString().startsWith(prefix)) {
          return line.toString();
        }
        line.setLength(0);
      } else {
        line.append((char) c);
      }
    }
  }
}
