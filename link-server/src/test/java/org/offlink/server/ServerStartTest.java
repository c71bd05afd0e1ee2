package org.offlink.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Servers the (sanitized) client starts itself: one per identity however many clients find none,
 * and a server that dies mid-link, after which the client ends the link's children, removes its
 * files and says so in one line.
 */
class ServerStartTest {
  @TempDir Path tmp;
  private ClientTree tree;

  @BeforeEach
  void create() throws Exception {
    tree = ClientTree.create(tmp);
  }

  @AfterEach
  void stopServers() throws Exception {
    for (long pid : serverPids()) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  /** The pids of the servers of this tree (java processes whose command line names its folder). */
  private Set<Long> serverPids() {
    Set<Long> pids = new HashSet<>();
    ProcessHandle.allProcesses()
        .filter(
            p ->
                p.info()
                    .arguments()
                    .map(a -> List.of(a).contains(tree.folder.toString()))
                    .orElse(false))
        .forEach(p -> pids.add(p.pid()));
    return pids;
  }

  @Test
  void manyClientsFindingNoServerStartOne() throws Exception {
    List<Process> clients = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      clients.add(tree.start("lto-wrapper", List.of("facts"), tree.environment()));
    }
    Set<String> servers = new HashSet<>();
    for (Process p : clients) {
      ClientTree.Result r = ClientTree.finish(p, Duration.ofSeconds(120));
      assertEquals(0, r.status(), r.err());
      ClientTest.assertClean(r.err());
      servers.add(r.out().replaceAll("(?s).*server=(\\d+).*", "$1"));
    }
    assertEquals(1, servers.size(), servers.toString());
    assertEquals(Set.of(Long.parseLong(servers.iterator().next())), serverPids());
    try (Stream<Path> files = Files.list(tree.folder)) {
      List<String> names =
          files
              .map(f -> f.getFileName().toString().replaceAll("^[0-9a-f]{16}", "H"))
              .sorted()
              .toList();
      assertEquals(List.of("H.lock", "H.log", "H.sock", "H.start"), names);
    }
  }

  /**
   * The server is SIGKILLed mid-link: one line, status 1, the link's child ended and its files
   * removed, the linker plugin's {@code -foffload-objects=} list among them, which lto-wrapper
   * removes when it fails (GCC's tool_cleanup) even where the server had not yet told of it (a soak
   * link killed early left it).
   */
  @Test
  void aServerDyingMidLinkIsOneLineAndNothingIsLeft() throws Exception {
    Path temp = tree.work.resolve("ccTEMP.o");
    Path list = Files.writeString(tree.work.resolve("ccLIST.ofldlist"), "1\nx.o\n");
    Process client =
        tree.start(
            "lto-wrapper", List.of("child", "-foffload-objects=" + list), tree.environment());
    long child = Long.parseLong(ClientTest.awaitLine(client, "child ").substring(6).trim());
    Process second =
        tree.start("lto-wrapper", List.of("temp", temp.toString()), tree.environment());
    ClientTest.awaitLine(second, "made ");
    assertTrue(Files.exists(temp));
    Set<Long> servers = serverPids();
    assertEquals(1, servers.size());
    long server = servers.iterator().next();
    ProcessHandle.of(server).orElseThrow().destroyForcibly();
    ClientTree.Result r = ClientTree.finish(client, Duration.ofSeconds(30));
    assertEquals(1, r.status());
    assertTrue(
        r.err()
            .startsWith(
                "lto-wrapper: fatal error: the offlink link server (pid "
                    + server
                    + ") ended during the link; its log: "
                    + tree.folder),
        r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    ClientTest.assertClean(r.err());
    assertFalse(ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false), "child lives");
    assertFalse(Files.exists(list), "the -foffload-objects= list was left behind");
    ClientTree.Result s = ClientTree.finish(second, Duration.ofSeconds(30));
    assertEquals(1, s.status());
    assertFalse(Files.exists(temp), "the link's file was left behind");
  }

  /**
   * The server dies while a link's child runs that removes its temporary file on SIGHUP but not on
   * SIGTERM, as collect2 does: the client ends it with SIGHUP first, so the file is gone.
   */
  @Test
  void aDeadServersChildIsEndedWithSighupFirst() throws Exception {
    Path temp = tree.work.resolve("cc1234.cdtor.c");
    Process client =
        tree.start("lto-wrapper", List.of("hupchild", temp.toString()), tree.environment());
    long child = Long.parseLong(ClientTest.awaitLine(client, "child ").substring(6).trim());
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!Files.exists(temp) && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertTrue(Files.exists(temp), "the child made no file");
    Set<Long> servers = serverPids();
    assertEquals(1, servers.size());
    ProcessHandle.of(servers.iterator().next()).orElseThrow().destroyForcibly();
    ClientTree.Result r = ClientTree.finish(client, Duration.ofSeconds(30));
    assertEquals(1, r.status(), r.err());
    assertFalse(ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false), "child lives");
    assertFalse(Files.exists(temp), "the child's file was left: it had no SIGHUP");
  }

  /**
   * The starting client's link is the server's from the start, not from its socket: a server that
   * never gets its socket (another process holds the name's lock) still runs that link, and ends.
   * Its lines go after the lock holder's in {@code H.log}, which stays where the clients' "its
   * log:" messages point; the next server that gets the lock keeps that log as {@code H.log.old}.
   */
  @Test
  void aServerWithoutItsSocketStillRunsTheLinkOfItsStarter() throws Exception {
    String hash = tree.identityHash();
    Path liveLog = tree.folder.resolve(hash + ".log");
    Path oldLog = tree.folder.resolve(hash + ".log.old");
    Files.writeString(liveLog, "the lock holder's line\n");
    try (FileChannel file =
            FileChannel.open(
                tree.folder.resolve(hash + ".lock"),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock held = file.lock()) {
      ClientTree.Result r = tree.run("lto-wrapper", List.of("facts"), tree.environment(), "");
      assertEquals(0, r.status(), r.err());
      ClientTest.assertClean(r.err());
      long server = Long.parseLong(r.out().replaceAll("(?s).*server=(\\d+).*", "$1"));
      assertTrue(server != ProcessHandle.current().pid(), r.out());
      ProcessHandle.of(server).ifPresent(h -> h.onExit().orTimeout(30, TimeUnit.SECONDS).join());
      assertTrue(held.isValid());
    }
    String log = Files.readString(liveLog);
    assertTrue(log.startsWith("the lock holder's line\n"), log);
    assertTrue(log.contains("not started: another server of this identity owns"), log);
    assertFalse(Files.exists(oldLog), "the lock holder's log was moved");
    assertFalse(Files.exists(tree.folder.resolve(hash + ".sock")), "a socket was made");

    ClientTree.Result next = tree.run("lto-wrapper", List.of("facts"), tree.environment(), "");
    assertEquals(0, next.status(), next.err());
    assertTrue(Files.exists(tree.folder.resolve(hash + ".sock")), "the next server has no socket");
    assertEquals(log, Files.readString(oldLog));
    assertFalse(Files.readString(liveLog).contains("the lock holder's line"));
  }

  @Test
  void aServerExitsWhenIdleAndTheNextLinkStartsAnother() throws Exception {
    Map<String, String> env = tree.environment();
    env.put("OFFLINK_SERVER_IDLE", "1");
    ClientTree.Result a = tree.run("lto-wrapper", List.of("facts"), env, "");
    assertEquals(0, a.status(), a.err());
    long first = Long.parseLong(a.out().replaceAll("(?s).*server=(\\d+).*", "$1"));
    ProcessHandle handle = ProcessHandle.of(first).orElseThrow();
    handle.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
    try (Stream<Path> files = Files.list(tree.folder)) {
      assertTrue(files.noneMatch(f -> f.toString().endsWith(".sock")), "the socket was left");
    }
    ClientTree.Result b = tree.run("lto-wrapper", List.of("facts"), env, "");
    assertEquals(0, b.status(), b.err());
    assertFalse(b.out().contains("server=" + first + "\n"));
  }
}
