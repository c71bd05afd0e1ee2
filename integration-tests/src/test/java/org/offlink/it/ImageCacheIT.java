package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.ltowrapper.cache.NginxWebDav;

/**
 * The device-image cache (issue 15) on real GCC 12 links: a program of one offload translation unit
 * and one host-only unit is linked by stock GCC and by offlink with a cache, and every offlink
 * link's registrations (the spy) and output must equal the stock link's of the same objects,
 * whether the image was built, taken from the local folder or from a real nginx WebDAV server
 * speaking Bazel's HTTP cache layout. What must miss misses: one byte of offload IR, a link option,
 * the accel toolchain's stamp, offlink's own build. A remote server that answers 500, hangs, is
 * down or serves a damaged blob costs one warning and never the link. No temp file is left behind.
 */
class ImageCacheIT {
  private static final String NVPTX = "-foffload=nvptx-none";

  /** The nvptx accel tool folder, part of every nvptx key; one test adds a file to it. */
  private static final String ACCEL_FOLDER = "gcc-12-accel-nvptx-none";

  private static final Pattern RESULT =
      Pattern.compile("\"name\": \"([^\"]+)\"[^}]*?\"cache\": \\{\\s*\"result\": \"(\\w+)\"");

  @TempDir static Path scratch;
  private static Toolchain toolchain;
  private static NginxWebDav nginx;
  private static int run;

  @BeforeAll
  static void setUp() throws Exception {
    toolchain = Toolchain.create(scratch);
    nginx = NginxWebDav.startOrSkip(scratch.resolve("nginx"));
  }

  @AfterAll
  static void tearDown() {
    if (nginx != null) {
      nginx.close();
    }
  }

  /** One build folder: the two sources, compiled by stock GCC 12. */
  private static Path program(String name, int deviceScale, int hostScale) throws IOException {
    Path work = Files.createDirectories(scratch.resolve(name));
    Files.writeString(
        work.resolve("k.c"),
        String.join(
            "\n",
            "#pragma omp declare target",
            "int scale = " + deviceScale + ";",
            "#pragma omp end declare target",
            "void saxpy(int n, float a, float *x, float *y) {",
            "#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])",
            "  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i] * scale;",
            "}",
            ""));
    compileHost(work, hostScale);
    step(work, List.of("gcc-12", "-fopenmp", "-c", "k.c", "-o", "k.o"), Map.of());
    return work;
  }

  /** The host-only change: main's constant. */
  private static void compileHost(Path work, int hostScale) throws IOException {
    Files.writeString(
        work.resolve("h.c"),
        String.join(
            "\n",
            "#include <stdio.h>",
            "void saxpy(int, float, float *, float *);",
            "int main(void) {",
            "  float x[64], y[64];",
            "  for (int i = 0; i < 64; i++) { x[i] = i; y[i] = 1; }",
            "  saxpy(64, " + hostScale + ".0f, x, y);",
            "  printf(\"%g\\n\", y[63]);",
            "  return 0;",
            "}",
            ""));
    step(work, List.of("gcc-12", "-fopenmp", "-c", "h.c", "-o", "h.o"), Map.of());
  }

  private static CommandResult step(Path work, List<String> argv, Map<String, String> env)
      throws IOException {
    ToolDir tools = ToolDir.stock();
    for (Map.Entry<String, String> e : env.entrySet()) {
      tools = tools.withEnvironment(e.getKey(), e.getValue());
    }
    CommandResult r = toolchain.step(argv, tools, work);
    assertEquals(0, r.exitStatus(), () -> argv + "\n" + r.stderr());
    return r;
  }

  /** What one link did, and what its program registered and printed. */
  private record Link(String stderr, Map<String, String> cache, List<String> registered) {}

  private static Link stock(Path work, List<String> options) throws IOException {
    return link(work, Optional.empty(), options, Map.of());
  }

  private static Link ours(Path work, List<String> options, Map<String, String> env)
      throws IOException {
    return link(work, Optional.of(Toolchain.offlinkDist()), options, env);
  }

  private static Link link(
      Path work, Optional<Path> dist, List<String> options, Map<String, String> env)
      throws IOException {
    Path report = work.resolve("report-" + (++run) + ".json");
    List<String> argv = new ArrayList<>(List.of("gcc-12", "-fopenmp"));
    argv.addAll(options);
    dist.ifPresent(d -> argv.addAll(List.of("-B", d.resolve("libexec/offlink") + "/")));
    argv.addAll(List.of("k.o", "h.o", "-o", "prog"));
    Map<String, String> full = new TreeMap<>(env);
    full.put("OFFLINK_REPORT", report.toString());
    clearTempFolder(work); // stock GCC 12's gcn mkoffload leaves an empty *.mkoffload.dbg.o
    CommandResult linked = step(work, argv, full);
    if (dist.isPresent()) {
      assertTrue(tempFolderEmpty(work), () -> "temp files left in " + work.resolve("tmp"));
    }
    Map<String, String> cache = new TreeMap<>();
    if (dist.isPresent()) {
      Matcher m = RESULT.matcher(Files.readString(report));
      while (m.find()) {
        cache.put(m.group(1), m.group(2).replace("CACHE_RESULT_", ""));
      }
    }
    return new Link(linked.stderr(), cache, spy(work));
  }

  private static void clearTempFolder(Path work) throws IOException {
    Files.createDirectories(work.resolve("tmp"));
    try (Stream<Path> left = Files.list(work.resolve("tmp"))) {
      for (Path p : (Iterable<Path>) left::iterator) {
        Files.delete(p);
      }
    }
  }

  private static boolean tempFolderEmpty(Path work) throws IOException {
    try (Stream<Path> left = Files.list(work.resolve("tmp"))) {
      return left.findAny().isEmpty();
    }
  }

  /** The program's output and registrations under the spy. */
  private static List<String> spy(Path work) throws IOException {
    Path dump = work.resolve("spy.txt");
    Files.deleteIfExists(dump);
    Map<String, String> env = new TreeMap<>();
    env.put("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
    env.put("LD_PRELOAD", toolchain.spyLibrary().toString());
    env.put("OFFLINK_SPY_OUT", dump.toString());
    CommandResult r =
        new LocalProcessRunner()
            .run(Command.of(List.of(work.resolve("prog").toString()), env, work));
    assertEquals(0, r.exitStatus(), r.stderr());
    List<String> lines = new ArrayList<>(List.of("stdout: " + r.stdout()));
    lines.addAll(Files.readAllLines(dump));
    return lines;
  }

  private static Map<String, String> cacheEnv(Path local, String remote) {
    Map<String, String> env = new TreeMap<>();
    env.put("OFFLINK_CACHE_DIR", local.toString());
    if (!remote.isEmpty()) {
      env.put("OFFLINK_REMOTE_CACHE", remote);
    }
    return env;
  }

  // Adds a stamp file to the shared nvptx accel folder for a while: every nvptx key changes.
  @Test
  @ResourceLock(value = ACCEL_FOLDER, mode = ResourceAccessMode.READ_WRITE)
  void hitsAfterHostOnlyChangesAndMissesWhatChangesTheImage() throws Exception {
    Path work = program("nvptx", 2, 3);
    Path localA = scratch.resolve("cache-a");
    String remote = nginx.base("cache") + "/nvptx";
    Map<String, String> env = cacheEnv(localA, remote);

    Link built = ours(work, List.of(NVPTX), env);
    assertEquals(Map.of("nvptx-none", "MISS"), built.cache());
    assertEquals(stock(work, List.of(NVPTX)).registered(), built.registered());

    compileHost(work, 5);
    Link stockAfterHostChange = stock(work, List.of(NVPTX));
    Link localHit = ours(work, List.of(NVPTX), env);
    assertEquals(Map.of("nvptx-none", "HIT_LOCAL"), localHit.cache());
    assertEquals(stockAfterHostChange.registered(), localHit.registered());

    Link remoteHit = ours(work, List.of(NVPTX), cacheEnv(scratch.resolve("cache-b"), remote));
    assertEquals(Map.of("nvptx-none", "HIT_REMOTE"), remoteHit.cache());
    assertEquals(stockAfterHostChange.registered(), remoteHit.registered());

    List<String> option = List.of(NVPTX, "-foffload-options=-O1");
    Link optionChanged = ours(work, option, env);
    assertEquals(Map.of("nvptx-none", "MISS"), optionChanged.cache(), "a link option");
    assertEquals(stock(work, option).registered(), optionChanged.registered());

    // One byte of offload IR: the device constant.
    Path changed = program("nvptx-ir", 4, 5);
    Link irChanged = ours(changed, List.of(NVPTX), env);
    assertEquals(Map.of("nvptx-none", "MISS"), irChanged.cache(), "the offload IR");
    assertEquals(stock(changed, List.of(NVPTX)).registered(), irChanged.registered());
    assertEquals(Map.of("nvptx-none", "HIT_LOCAL"), ours(changed, List.of(NVPTX), env).cache());

    // The accel toolchain's stamp: a file appears in the accel tool folder (as a package update
    // would add or replace one); as root only, and removed again.
    Path accel = Path.of("/usr/lib/gcc/x86_64-linux-gnu/12/accel/nvptx-none");
    if (Files.isWritable(accel)) {
      Path added = accel.resolve("offlink-image-cache-it.stamp");
      try {
        Files.writeString(added, "a toolchain file that was not there before\n");
        Link toolchainChanged = ours(work, List.of(NVPTX), env);
        assertEquals(Map.of("nvptx-none", "MISS"), toolchainChanged.cache(), "the toolchain");
        assertEquals(stockAfterHostChange.registered(), toolchainChanged.registered());
      } finally {
        Files.deleteIfExists(added);
      }
      assertEquals(Map.of("nvptx-none", "HIT_LOCAL"), ours(work, List.of(NVPTX), env).cache());
    }

    // offlink's own build: a copy of the tree with one jar rebuilt (a new time).
    Path tree = Trees.copy(Toolchain.offlinkDist(), scratch.resolve("offlink-rebuilt"));
    try (Stream<Path> jars = Files.list(tree.resolve("lib"))) {
      Path jar =
          jars.filter(p -> p.getFileName().toString().startsWith("accel-compiler-bridge"))
              .findFirst()
              .orElseThrow();
      Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis()));
    }
    Link rebuilt = link(work, Optional.of(tree), List.of(NVPTX), env);
    assertEquals(Map.of("nvptx-none", "MISS"), rebuilt.cache(), "offlink's build");
    assertEquals(stockAfterHostChange.registered(), rebuilt.registered());
  }

  @Test
  @ResourceLock(value = ACCEL_FOLDER, mode = ResourceAccessMode.READ)
  void bothTargetsHitTogether() throws Exception {
    Path work = program("both", 2, 3);
    List<String> both = List.of("-foffload=nvptx-none", "-foffload=amdgcn-amdhsa=-march=gfx906");
    Map<String, String> env = cacheEnv(scratch.resolve("cache-both"), "");
    Link built = ours(work, both, env);
    assertEquals(Map.of("nvptx-none", "MISS", "amdgcn-amdhsa", "MISS"), built.cache());
    compileHost(work, 7);
    Link stock = stock(work, both);
    Link hit = ours(work, both, env);
    assertEquals(Map.of("nvptx-none", "HIT_LOCAL", "amdgcn-amdhsa", "HIT_LOCAL"), hit.cache());
    assertEquals(stock.registered(), hit.registered());
  }

  @Test
  @ResourceLock(value = ACCEL_FOLDER, mode = ResourceAccessMode.READ)
  void aBadRemoteServerCostsOneWarningAndNeverTheLink() throws Exception {
    Path work = program("faults", 2, 3);
    List<String> expected = stock(work, List.of(NVPTX)).registered();

    // Fill the remote, then damage the object blob on the server.
    String remote = nginx.base("cache") + "/faults";
    ours(work, List.of(NVPTX), cacheEnv(scratch.resolve("faults-fill"), remote));
    for (String blob : nginx.files("cache")) {
      Path file = nginx.file("cache", blob);
      if (blob.startsWith("faults/cas/") && Files.size(file) > 1000) {
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 1;
        Files.write(file, bytes);
      }
    }
    int downPort;
    try (ServerSocket closed = new ServerSocket(0)) {
      downPort = closed.getLocalPort();
    }
    try (ServerSocket silent = new ServerSocket(0)) {
      Thread acceptor = new Thread(() -> acceptAndHang(silent));
      acceptor.setDaemon(true);
      acceptor.start();
      Map<String, String> servers = new TreeMap<>();
      servers.put("damaged blob", remote);
      servers.put("HTTP 500", nginx.base("fail") + "/x");
      servers.put("down", "http://127.0.0.1:" + downPort + "/x");
      servers.put("hangs", "http://127.0.0.1:" + silent.getLocalPort() + "/x");
      int n = 0;
      for (Map.Entry<String, String> server : servers.entrySet()) {
        Map<String, String> env = cacheEnv(scratch.resolve("faults-" + (++n)), server.getValue());
        env.put("OFFLINK_REMOTE_CACHE_TIMEOUT", "1");
        Link link = ours(work, List.of(NVPTX), env);
        assertEquals(Map.of("nvptx-none", "MISS"), link.cache(), server.getKey());
        assertEquals(expected, link.registered(), server.getKey());
        long warnings = link.stderr().lines().filter(l -> l.contains("remote cache")).count();
        assertEquals(1, warnings, server.getKey() + ":\n" + link.stderr());
      }
    }
  }

  private static void acceptAndHang(ServerSocket server) {
    List<Socket> held = new ArrayList<>();
    try {
      while (true) {
        held.add(server.accept());
      }
    } catch (IOException closed) {
      // the test is over
    }
  }
}
