package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Real GCC 12 saxpy links (nvptx) through offlink's image cache, as root or as another user ({@code
 * setpriv}), under a chosen umask, with the link's peak RSS measured, and the program run under the
 * registration spy. For the issue 27 ITs ({@link CacheTrustIT}, {@link RemoteCacheMisbehavingIT}).
 * {@code -Dcache.dist=DIR} runs them against another build (e.g. the tree of 4d51cf0, from before
 * the fix).
 */
final class CacheLinks {
  /** The offlink tree under test, where the links' other users can run it. */
  static final Path DIST =
      OtherUsers.tree(
          Path.of(System.getProperty("cache.dist", System.getProperty("offlink.dist"))));

  private static final String JAVA =
      Path.of(System.getProperty("java.home"), "bin", "java").toString();

  /**
   * Runs argv[3:] with umask argv[1] ("-": unchanged) and writes the peak RSS in KiB of its process
   * tree (the largest process: the link's JVM) to argv[2].
   */
  private static final String RUNNER =
      String.join(
          "\n",
          "import os, resource, subprocess, sys",
          "if sys.argv[1] != '-': os.umask(int(sys.argv[1], 8))",
          "r = subprocess.run(sys.argv[3:])",
          "open(sys.argv[2], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))",
          "sys.exit(r.returncode)",
          "");

  private final Path root;
  private final Toolchain toolchain;
  private final Path object;
  private final Path runner;
  private final List<String> stockRegistrations;

  private CacheLinks(Path root, Toolchain toolchain, Path object, Path runner, List<String> stock) {
    this.root = root;
    this.toolchain = toolchain;
    this.object = object;
    this.runner = runner;
    this.stockRegistrations = stock;
  }

  /** Compiles saxpy for nvptx in {@code scratch} and records what stock GCC's link registers. */
  static CacheLinks create(Path scratch) throws Exception {
    Path root = Files.createDirectories(scratch.resolve("links"));
    open(scratch);
    open(root);
    Toolchain toolchain = Toolchain.create(Files.createDirectories(scratch.resolve("spy")));
    Path src = root.resolve("saxpy.c");
    Files.copy(Path.of(System.getProperty("offlink.root", ".."), "examples/saxpy.c"), src);
    Path object = root.resolve("saxpy.o");
    Result compiled =
        run(root, Map.of(), List.of("gcc-12", "-fopenmp", "-c", "saxpy.c", "-o", "saxpy.o"));
    assertEquals(0, compiled.status(), compiled.output());
    Path runner = Files.writeString(root.resolve("run.py"), RUNNER);
    CacheLinks links = new CacheLinks(root, toolchain, object, runner, List.of());
    Path stock = links.folder("stock", 0);
    Result r = run(stock, Map.of(), links.gcc(false));
    assertEquals(0, r.status(), r.output());
    return new CacheLinks(root, toolchain, object, runner, links.registered(stock));
  }

  /** What stock GCC's program registers (the spy's lines and the program's output). */
  List<String> stock() {
    return stockRegistrations;
  }

  /**
   * A fresh world-readable folder {@code name} holding saxpy.o, owned by {@code uid}, with its own
   * {@code tmp/} and {@code home/} (TMPDIR and HOME of the links made there).
   */
  Path folder(String name, int uid) throws IOException {
    Path dir = Files.createDirectories(root.resolve(name));
    Files.copy(object, dir.resolve("saxpy.o"));
    for (Path p :
        List.of(
            dir,
            Files.createDirectories(dir.resolve("tmp")),
            Files.createDirectories(dir.resolve("home")))) {
      open(p);
      Files.setAttribute(p, "unix:uid", uid);
    }
    Files.setAttribute(dir.resolve("saxpy.o"), "unix:uid", uid);
    return dir;
  }

  /** A folder anyone may enter and read. */
  static Path open(Path dir) throws IOException {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    return dir;
  }

  /**
   * Who runs a link: a uid and gid, supplementary groups, a umask ("-": the caller's).
   *
   * @param groups supplementary gids, empty for none
   */
  record Account(int uid, int gid, List<Integer> groups, String umask) {
    static final Account ROOT = new Account(0, 0, List.of(), "-");

    static Account user(int uid, Integer... groups) {
      return new Account(uid, uid, List.of(groups), "-");
    }

    Account withUmask(String mask) {
      return new Account(uid, gid, groups, mask);
    }

    /** The {@code setpriv} prefix, none for root. */
    List<String> prefix() {
      if (uid == 0) {
        return List.of();
      }
      List<String> argv = new ArrayList<>(List.of("setpriv", "--reuid=" + uid, "--regid=" + gid));
      if (groups.isEmpty()) {
        argv.add("--clear-groups");
      } else {
        argv.add("--groups=" + String.join(",", groups.stream().map(String::valueOf).toList()));
      }
      return argv;
    }
  }

  /** What a command did. */
  record Result(int status, String output, long peakRssKib, boolean timedOut) {
    /** The warning lines (lto-wrapper's, with its {@code warning:} prefix). */
    List<String> warnings() {
      return output.lines().filter(l -> l.contains("warning:")).toList();
    }
  }

  /** What one link did and what its program registers. */
  record Link(Result result, List<String> registered) {
    List<String> warnings() {
      return result.warnings();
    }
  }

  /** The gcc command of a link in its folder, offlink's or stock's, with {@code extra} options. */
  private List<String> gcc(boolean offlink, String... extra) {
    List<String> argv = new ArrayList<>(List.of("gcc-12", "-fopenmp", "-foffload=nvptx-none"));
    if (offlink) {
      argv.addAll(List.of("-B", DIST.resolve("libexec/offlink") + "/"));
    }
    argv.addAll(List.of(extra));
    argv.addAll(List.of("saxpy.o", "-o", "p"));
    return argv;
  }

  /**
   * offlink's link in {@code dir} as {@code who} with {@code env} (on top of PATH, HOME, TMPDIR and
   * OFFLINK_JAVA) and {@code extra} gcc options, and, when it succeeded, its program's
   * registrations.
   */
  Link link(Path dir, Account who, Map<String, String> env, String... extra) throws Exception {
    Files.deleteIfExists(dir.resolve("p"));
    Result r = as(who, dir, env, gcc(true, extra));
    return new Link(r, r.status() == 0 && !r.timedOut() ? registered(dir) : List.of());
  }

  /** {@code argv} in {@code dir} as {@code who}, with the links' environment and {@code env}. */
  Result as(Account who, Path dir, Map<String, String> env, List<String> argv) throws Exception {
    Path rss = Files.createTempFile(root, "rss", ".txt");
    Files.setPosixFilePermissions(rss, PosixFilePermissions.fromString("rw-rw-rw-"));
    List<String> full = new ArrayList<>(who.prefix());
    full.addAll(List.of("python3", runner.toString(), who.umask(), rss.toString()));
    full.addAll(argv);
    Map<String, String> all = new TreeMap<>();
    all.put("HOME", dir.resolve("home").toString());
    all.put("TMPDIR", dir.resolve("tmp").toString());
    all.put("OFFLINK_JAVA", JAVA);
    all.putAll(env);
    Result r = run(dir, all, full);
    String kib = Files.readString(rss).strip();
    Files.delete(rss);
    return new Result(
        r.status(), r.output(), kib.isEmpty() ? -1 : Long.parseLong(kib), r.timedOut());
  }

  /** The program {@code dir/p}'s output and what it registered, under the spy (as root). */
  List<String> registered(Path dir) throws Exception {
    Path dump = dir.resolve("spy.txt");
    Files.deleteIfExists(dump);
    Map<String, String> env = new TreeMap<>();
    env.put("LD_PRELOAD", toolchain.spyLibrary().toString());
    env.put("OFFLINK_SPY_OUT", dump.toString());
    Result r = run(dir, env, List.of(dir.resolve("p").toString()));
    assertEquals(0, r.status(), r.output());
    List<String> lines = new ArrayList<>(List.of("output: " + r.output()));
    lines.addAll(Files.readAllLines(dump));
    return lines;
  }

  /** The one entry file of a cache folder (nvptx: one image per link). */
  static Path onlyEntry(Path cache) throws IOException {
    List<Path> entries = entries(cache);
    assertEquals(1, entries.size(), entries.toString());
    return entries.get(0);
  }

  /** The {@code *.img} files of a cache folder. */
  static List<Path> entries(Path cache) throws IOException {
    if (!Files.isDirectory(cache.resolve("v1"))) {
      return List.of();
    }
    try (Stream<Path> all = Files.walk(cache.resolve("v1"))) {
      return all.filter(p -> p.getFileName().toString().endsWith(".img")).sorted().toList();
    }
  }

  /** {@code argv} in {@code dir}, PATH without /usr/local/bin, 3 minutes at most. */
  static Result run(Path dir, Map<String, String> env, List<String> argv) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true);
    pb.environment().clear();
    pb.environment().put("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
    pb.environment().put("LANG", "C");
    pb.environment().putAll(env);
    Path out = Files.createTempFile("cache-links", ".out");
    pb.redirectOutput(out.toFile());
    Process p = pb.start();
    boolean done = p.waitFor(180, TimeUnit.SECONDS);
    if (!done) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      p.waitFor();
    }
    String output = Files.readString(out, StandardCharsets.UTF_8);
    Files.delete(out);
    return new Result(done ? p.exitValue() : -1, output, -1, !done);
  }

  /** Asserts a link succeeded, in time, and its program registered what stock's does. */
  void assertLinkedAsStock(Link l, String what) {
    assertTrue(!l.result().timedOut(), what + ": the link timed out\n" + l.result().output());
    assertEquals(0, l.result().status(), what + ":\n" + l.result().output());
    assertEquals(stockRegistrations, l.registered(), what);
  }

  /** The environment naming a cache folder, plus {@code more} (key, value, ...). */
  static Map<String, String> cacheEnv(Path cache, String... more) {
    Map<String, String> env = new TreeMap<>(Map.of("OFFLINK_CACHE_DIR", cache.toString()));
    for (int i = 0; i + 1 < more.length; i += 2) {
      env.put(more[i], more[i + 1]);
    }
    return env;
  }

  /** The folder links are made in. */
  Path root() {
    return root;
  }
}
