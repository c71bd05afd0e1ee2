package org.offlink.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two users on one machine (run as root: {@code setpriv} runs the clients as nobody and daemon):
 * each gets a server of their own, neither's client uses the other's folder, and a server refuses a
 * connection from any other user, root included ({@code SO_PEERCRED}).
 */
class TwoUsersTest {
  private static final String NOBODY = "65534";
  private static final String DAEMON = "1";

  private Path shared;
  private ClientTree tree;
  private final List<Long> servers = new ArrayList<>();

  @BeforeEach
  void create() throws Exception {
    assumeTrue(ServerFolder.currentUid() == 0, "needs root (setpriv to two other users)");
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs setpriv (util-linux)");
    // A tree and a server class path every user can read, and a sticky folder like /tmp.
    shared = Files.createTempDirectory("offlink-two-users-");
    run("chmod", "1777", shared.toString());
    Path classes = shared.resolve("classes");
    String cp =
        copy(Path.of("target/classes"), classes.resolve("main"))
            + ":"
            + copy(Path.of("target/test-classes"), classes.resolve("test"))
            + ":"
            + copy(Path.of("../section-streamer/target/classes"), classes.resolve("streamer"))
            + ":"
            + copy(Path.of("../offlink-runtime/target/classes"), classes.resolve("runtime"));
    tree = ClientTree.create(shared, cp);
    run("chmod", "-R", "a+rX", shared.resolve("tree").toString(), classes.toString());
    run("chmod", "1777", shared.resolve("work").toString());
  }

  @AfterEach
  void cleanUp() throws Exception {
    servers.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    if (shared != null) {
      run("rm", "-rf", shared.toString());
    }
  }

  private static String copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : files.toList()) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target);
        }
      }
    }
    return to.toString();
  }

  private static ClientTree.Result run(String... argv) throws Exception {
    return ClientTree.finish(new ProcessBuilder(argv).start(), Duration.ofSeconds(120));
  }

  /** The client as {@code uid}, with {@code folder} as its server folder. */
  private ClientTree.Result link(String uid, Path folder, String... args) throws Exception {
    List<String> argv =
        new ArrayList<>(
            List.of(
                "/usr/bin/setpriv",
                "--reuid=" + uid,
                "--regid=" + uid,
                "--clear-groups",
                tree.tool("lto-wrapper").toString()));
    argv.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(argv).directory(tree.work.toFile());
    pb.environment().clear();
    pb.environment().putAll(tree.environment());
    pb.environment().put("OFFLINK_SERVER_DIR", folder.toString());
    ClientTree.Result r = ClientTree.finish(pb.start(), Duration.ofSeconds(120));
    ClientTest.assertClean(r.err());
    return r;
  }

  private long server(ClientTree.Result r) {
    long pid = Long.parseLong(r.out().replaceAll("(?s).*server=(\\d+).*", "$1"));
    servers.add(pid);
    return pid;
  }

  @Test
  void neitherUserReachesTheOthersServer() throws Exception {
    Path folderA = shared.resolve("a");
    Path folderB = shared.resolve("b");
    ClientTree.Result a = link(NOBODY, folderA, "facts");
    assertEquals(0, a.status(), a.err());
    ClientTree.Result b = link(DAEMON, folderB, "facts");
    assertEquals(0, b.status(), b.err());
    long serverA = server(a);
    long serverB = server(b);
    assertTrue(serverA != serverB);
    assertEquals(65534, (int) Files.getAttribute(Path.of("/proc/" + serverA), "unix:uid"));
    assertEquals(1, (int) Files.getAttribute(Path.of("/proc/" + serverB), "unix:uid"));

    // daemon's client pointed at nobody's folder refuses it and links in a JVM of its own.
    // (Its client opens the folder without reading it, so the check can name the owner.)
    ClientTree.Result intruder = link(DAEMON, folderA, "facts");
    assertEquals(42, intruder.status());
    assertTrue(
        intruder
            .err()
            .contains(
                "the server folder "
                    + folderA
                    + " belongs to uid 65534, not to uid 1; linking in this process"),
        intruder.err());

    // With the folder and socket opened up, a connection from another user gets to the server,
    // which refuses it: daemon's, and root's too.
    Path socket;
    try (Stream<Path> files = Files.list(folderA)) {
      socket = files.filter(f -> f.toString().endsWith(".sock")).findFirst().orElseThrow();
    }
    run("chmod", "711", folderA.toString());
    run("chmod", "777", socket.toString());
    ClientTree.Result fromDaemon = probe(DAEMON, socket);
    assertEquals("R 3\n", fromDaemon.out(), fromDaemon.err());
    ClientTree.Result fromRoot = probe("0", socket);
    assertEquals("R 3\n", fromRoot.out(), fromRoot.err());
    // Its own user still gets an answer.
    ClientTree.Result own = probe(NOBODY, socket);
    assertEquals("T 112\n", own.out(), own.err()); // 'p' of "pid=..."
  }

  /** {@link PeerProbe} of {@code socket}, run as {@code uid}. */
  private ClientTree.Result probe(String uid, Path socket) throws Exception {
    String cp =
        shared.resolve("classes/main")
            + ":"
            + shared.resolve("classes/test")
            + ":"
            + shared.resolve("classes/runtime");
    return run(
        "/usr/bin/setpriv",
        "--reuid=" + uid,
        "--regid=" + uid,
        "--clear-groups",
        tree.java.toString(),
        "-cp",
        cp,
        PeerProbe.class.getName(),
        socket.toString());
  }
}
