package org.offlink.it;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.server.ServerQuery;

/**
 * A Debian root built by {@code scripts/setup-toolchain.sh --gcc <V>} (trixie for 13/14, sid for
 * 15/16), used through {@code chroot}. Opening it mounts {@code /proc} and binds {@code /dev} when
 * they are not mounted already and makes a work folder in the root's {@code /tmp}; {@link #close}
 * unmounts what it mounted once no other open root of this JVM uses it, and removes the work
 * folder, also after a failure. Commands run with a fixed environment ({@code PATH=/usr/bin:/bin},
 * {@code LC_ALL=C}) in the work folder.
 */
final class DebianRoot implements AutoCloseable {
  /** Written last by setup-toolchain.sh: the root is complete. */
  static final String STAMP = ".offlink-root-complete";

  private static final Path DEFAULT_ROOTS = Path.of("/var/cache/offlink/roots");

  private final Path root;
  private final Path work;
  private final ProcessRunner runner = new LocalProcessRunner();
  private final Deque<Path> mounted = new ArrayDeque<>();

  private DebianRoot(Path root, Path work) {
    this.root = root;
    this.work = work;
  }

  /**
   * Where the roots live: system property {@code offlink.roots}, else {@code $OFFLINK_ROOTS_DIR}
   * (the variable setup-toolchain.sh reads), else {@code /var/cache/offlink/roots}.
   */
  static Path rootsDirectory() {
    String property = System.getProperty("offlink.roots");
    if (property != null && !property.isEmpty()) {
      return Path.of(property);
    }
    String env = System.getenv("OFFLINK_ROOTS_DIR");
    return env != null && !env.isEmpty() ? Path.of(env) : DEFAULT_ROOTS;
  }

  /** The complete root for GCC {@code major}, if setup-toolchain.sh has built it. */
  static Optional<Path> find(int major) {
    Path root = rootsDirectory().resolve("gcc-" + major);
    return Files.isRegularFile(root.resolve(STAMP)) ? Optional.of(root) : Optional.empty();
  }

  /** Whether this process may chroot and mount (it runs as root). */
  static boolean canChroot() {
    try {
      return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  /**
   * {@link #open}s the root for GCC {@code major} by {@link DebianRoots#require}'s rule: a version
   * listed in OFFLINK_TEST_GCC_VERSIONS must have its root (a failure otherwise), an unlisted one
   * is skipped naming the command that builds it.
   */
  static DebianRoot openOrSkip(int major) throws IOException {
    return open(DebianRoots.require(major));
  }

  /** Mounts what the root needs and creates a fresh work folder in it. */
  static DebianRoot open(Path root) throws IOException {
    Path work = Files.createTempDirectory(root.resolve("tmp"), "offlink-it-");
    DebianRoot r = new DebianRoot(root, work);
    try {
      r.mount(List.of("mount", "-t", "proc", "proc"), root.resolve("proc"));
      r.mount(List.of("mount", "--bind", "/dev"), root.resolve("dev"));
    } catch (IOException | RuntimeException e) {
      r.close();
      throw e;
    }
    return r;
  }

  /**
   * Mounts this JVM made, with how many open roots use each: test classes running in parallel share
   * a root's /proc and /dev, and only the last one to close unmounts them.
   */
  private static final Map<Path, Integer> USERS = new java.util.HashMap<>();

  private void mount(List<String> argv, Path target) throws IOException {
    synchronized (USERS) {
      Integer users = USERS.get(target);
      if (users != null) {
        USERS.put(target, users + 1);
        mounted.push(target);
        return;
      }
      if (isMountPoint(target)) {
        return; // mounted outside this JVM: left alone
      }
      List<String> full = new ArrayList<>(argv);
      full.add(target.toString());
      runner.runChecked(Command.of(full, Map.of("PATH", Toolchain.SAFE_PATH), work));
      USERS.put(target, 1);
      mounted.push(target);
    }
  }

  /**
   * Makes the host folder {@code hostDir} visible read-only as {@code <work>/<name>} (a bind mount,
   * undone by {@link #close} before the work folder is removed) and returns that folder as the
   * chrooted commands see it.
   */
  String bindReadOnly(Path hostDir, String name) throws IOException {
    Path target = Files.createDirectory(work.resolve(name));
    List<String> bind = List.of("mount", "--bind", hostDir.toRealPath().toString());
    runner.runChecked(
        Command.of(
            List.of(bind.get(0), bind.get(1), bind.get(2), target.toString()),
            Map.of("PATH", Toolchain.SAFE_PATH),
            work));
    synchronized (USERS) {
      USERS.put(target, 1); // under this root's own work folder: never shared
      mounted.push(target);
    }
    runner.runChecked(
        Command.of(
            List.of("mount", "-o", "remount,bind,ro", target.toString()),
            Map.of("PATH", Toolchain.SAFE_PATH),
            work));
    return inside(target);
  }

  /**
   * Makes the JDK at {@code home} usable in the root and returns its {@code java} as chrooted
   * commands see it: the JDK read-only as {@code <work>/jdk}, and each host folder that its {@code
   * conf} links point into read-only at its own path. Debian's JDKs link {@code
   * conf/security/java.security} and others to {@code /etc/java-<N>-openjdk}, which a root without
   * that JDK lacks ("Error loading java.security file"); a self-contained JDK has no such links.
   */
  String bindJdk(Path home) throws IOException {
    String java = bindReadOnly(home, "jdk") + "/bin/java";
    Path jdk = home.toRealPath();
    List<Path> outside = new ArrayList<>();
    try (Stream<Path> files = Files.walk(jdk.resolve("conf"))) {
      for (Path link : files.filter(Files::isSymbolicLink).toList()) {
        Path target = link.toRealPath().getParent();
        if (!target.startsWith(jdk) && outside.stream().noneMatch(target::startsWith)) {
          outside.removeIf(o -> o.startsWith(target));
          outside.add(target);
        }
      }
    }
    for (Path dir : outside) {
      Path target = root.resolve(dir.toString().substring(1));
      Files.createDirectories(target);
      mount(List.of("mount", "-o", "bind,ro", dir.toString()), target);
    }
    return java;
  }

  /** Copies the test resource {@code resource} to {@code <work>/<name>}. */
  void copyResource(String resource, String name) throws IOException {
    try (InputStream in = DebianRoot.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("test resource " + resource + " is missing");
      }
      Files.copy(in, work.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /**
   * Builds the registration spy in the root with its {@code gcc} (so that glibc matches) and
   * returns the library's path as chrooted commands see it, for {@code LD_PRELOAD}.
   */
  String buildSpy(String gcc) throws IOException {
    copyResource("/interposer/gomp_register_spy.c", "gomp_register_spy.c");
    runChecked(
        List.of(
            gcc,
            "-O2",
            "-Wall",
            "-Werror",
            "-shared",
            "-fPIC",
            "-o",
            "libspy.so",
            "gomp_register_spy.c",
            "-ldl"),
        Map.of());
    return inside(work.resolve("libspy.so"));
  }

  private static boolean isMountPoint(Path target) throws IOException {
    String want = target.toRealPath().toString();
    for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
      String[] fields = line.split(" ");
      if (fields.length > 4 && fields[4].equals(want)) {
        return true;
      }
    }
    return false;
  }

  /** The root folder on the host. */
  Path root() {
    return root;
  }

  /** The work folder, as a host path. */
  Path work() {
    return work;
  }

  /** A host path under the root as the chrooted commands see it. */
  String inside(Path hostPath) {
    return "/" + root.relativize(hostPath);
  }

  /**
   * Runs {@code argv} chrooted, in the work folder, with the fixed environment plus {@code env}.
   * Returns the result whatever the exit status.
   */
  CommandResult run(List<String> argv, Map<String, String> env) throws IOException {
    return runIn(work, argv, env);
  }

  /** {@link #run} in {@code dir}, a host path under the root. */
  CommandResult runIn(Path dir, List<String> argv, Map<String, String> env) throws IOException {
    List<String> full = new ArrayList<>();
    full.addAll(List.of("chroot", root.toString(), "/usr/bin/env", "-i"));
    full.add("--chdir=" + inside(dir));
    full.add("PATH=/usr/bin:/bin");
    full.add("LC_ALL=C");
    Map<String, String> mode = new java.util.HashMap<>(env);
    LinkMode.apply(mode, inside(work.resolve("servers")));
    mode.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> full.add(e.getKey() + "=" + e.getValue()));
    full.addAll(argv);
    return runner.run(Command.of(full, Map.of("PATH", "/usr/sbin:/usr/bin:/sbin:/bin"), work));
  }

  /** {@link #run}, failing with the command's stderr unless it exits 0. */
  CommandResult runChecked(List<String> argv, Map<String, String> env) throws IOException {
    CommandResult r = run(argv, env);
    if (r.exitStatus() != 0) {
      throw new IOException(
          "in "
              + root
              + ": "
              + String.join(" ", argv)
              + " exited "
              + r.exitStatus()
              + ":\n"
              + r.stderr());
    }
    return r;
  }

  /**
   * Stops the link servers links in this root started (their JVM runs from the bound tree, which
   * could not be unmounted under it) and waits for them to exit.
   */
  private void stopServers() throws IOException {
    for (Path socket : ServerQuery.sockets(work.resolve("servers"))) {
      java.util.Optional<Map<String, String>> s = ServerQuery.stop(socket);
      if (s.isPresent()) {
        ProcessHandle.of(Long.parseLong(s.get().get("pid")))
            .ifPresent(p -> p.onExit().orTimeout(60, java.util.concurrent.TimeUnit.SECONDS).join());
      }
    }
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    try {
      stopServers();
    } catch (IOException | RuntimeException e) {
      first = new IOException("stopping the link servers in " + root + ": " + e, e);
    }
    while (!mounted.isEmpty()) {
      Path target = mounted.pop();
      synchronized (USERS) {
        int users = USERS.get(target) - 1;
        if (users > 0) {
          USERS.put(target, users);
          continue;
        }
        USERS.remove(target);
        try {
          runner.runChecked(
              Command.of(
                  List.of("umount", target.toString()),
                  Map.of("PATH", Toolchain.SAFE_PATH),
                  root.resolve("tmp")));
        } catch (IOException e) {
          first = first == null ? e : first;
        }
      }
    }
    if (first != null) {
      throw first; // something may still be mounted under work: remove nothing
    }
    try (Stream<Path> all = Files.walk(work)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      first = first == null ? e : first;
    }
    if (first != null) {
      throw first;
    }
  }
}
