package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Image;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * A container of {@code debian:<suite>} (scripts/setup-container-engine.sh imports bookworm, trixie
 * and sid), or of an image made from it with some packages installed ({@link #startWith}), holding
 * the Debian package at {@code /tmp/offlink.deb}, {@code examples/saxpy.c} at {@code /tmp/saxpy.c}
 * and the registration spy's source at {@code /tmp/spy.c}, with apt's package lists fetched. apt's
 * downloads are kept across runs in {@code /var/cache/offlink/apt/<suite>} (a download cache: every
 * package is still installed here). That folder is not apt's own archive folder, whose lock would
 * make concurrent containers of one suite fail: before apt runs, the container's archive folder
 * gets links to the cached packages, and what apt downloaded is copied back under a temporary name
 * and renamed.
 */
final class DebianContainer implements AutoCloseable {
  private static final Path APT_CACHE = Path.of("/var/cache/offlink/apt");

  private final GenericContainer<?> container;
  private final boolean cached;

  private DebianContainer(GenericContainer<?> container, boolean cached) {
    this.container = container;
    this.cached = cached;
  }

  /** Where {@link #startWith} keeps its prepared images. */
  private static final String PREPARED = "offlink-it-debian";

  /**
   * Starts a container of {@code debian:<suite>} with {@code packages} installed and {@code deb} in
   * it. The packages are installed once per base image and package list: in a container of {@code
   * debian:<suite>}, as {@link #apt} installs them, committed as the image {@code
   * offlink-it-debian:<suite>-<key>} (key: the base image's id and the package list) and kept, so
   * that the next run starts from there instead of unpacking the same packages again (about a
   * minute a suite). Making one removes the suite's images of other keys.
   */
  static DebianContainer startWith(String suite, String packages, Path deb) throws Exception {
    return start(suite, prepared(suite, packages), Optional.of(deb));
  }

  private static String prepared(String suite, String packages) throws Exception {
    DockerClient client = DockerClientFactory.instance().client();
    String base = client.inspectImageCmd("debian:" + suite).exec().getId();
    String key =
        HexFormat.of()
            .formatHex(
                MessageDigest.getInstance("SHA-256")
                    .digest((base + "\n" + packages).getBytes(StandardCharsets.UTF_8)))
            .substring(0, 16);
    String tag = suite + "-" + key;
    String image = PREPARED + ":" + tag;
    try {
      client.inspectImageCmd(image).exec();
      return image;
    } catch (NotFoundException e) {
      // Not made yet for this base image and package list.
    }
    long start = System.nanoTime();
    try (DebianContainer c = start(suite, "debian:" + suite, Optional.empty())) {
      c.apt("install", packages);
      c.sh("apt-get clean"); // the links to the shared download cache
      client
          .commitCmd(c.container.getContainerId())
          .withRepository(PREPARED)
          .withTag(tag)
          .withCmd("sleep", "infinity")
          .exec();
    }
    System.out.printf(
        "%s: made %s (%s) in %.0f s%n", suite, image, packages, (System.nanoTime() - start) / 1e9);
    for (Image i : client.listImagesCmd().exec()) {
      for (String name : i.getRepoTags() == null ? new String[0] : i.getRepoTags()) {
        String bare = name.substring(name.lastIndexOf('/') + 1);
        if (bare.startsWith(PREPARED + ":" + suite + "-") && !bare.equals(image)) {
          client.removeImageCmd(name).exec();
        }
      }
    }
    return image;
  }

  /**
   * Starts a container of {@code image} (of {@code debian:<suite>}), with {@code deb}, saxpy and
   * the spy's source in it when {@code deb} is given.
   */
  private static DebianContainer start(String suite, String image, Optional<Path> deb)
      throws Exception {
    Path repo = Path.of(System.getProperty("offlink.repo"));
    GenericContainer<?> c =
        new GenericContainer<>(DockerImageName.parse(image)).withCommand("sleep", "infinity");
    if (deb.isPresent()) {
      c.withCopyFileToContainer(MountableFile.forHostPath(deb.get()), "/tmp/offlink.deb")
          .withCopyFileToContainer(
              MountableFile.forHostPath(repo.resolve("examples/saxpy.c")), "/tmp/saxpy.c")
          .withCopyFileToContainer(
              MountableFile.forClasspathResource("interposer/gomp_register_spy.c"), "/tmp/spy.c");
    }
    Path archives = APT_CACHE.resolve(suite);
    boolean cached;
    try {
      Files.createDirectories(archives);
      c.withFileSystemBind(archives.toString(), SHARED);
      cached = true;
    } catch (IOException e) {
      cached = false; // no cache folder (not root): apt downloads every time
    }
    DebianContainer d = new DebianContainer(c, cached);
    c.start();
    d.sh("apt-get update -qq");
    return d;
  }

  private static final String SHARED = "/var/cache/offlink-apt";

  /** Runs {@code script} with {@code sh -e}; asserts exit status 0 and returns stdout. */
  String sh(String script) throws Exception {
    ExecResult r = container.execInContainer("sh", "-c", "set -e; " + script);
    assertEquals(0, r.getExitCode(), script + "\n" + r.getStdout() + r.getStderr());
    return r.getStdout();
  }

  /** {@code apt-get VERB -y PACKAGES} without recommends; returns its output, stderr included. */
  String apt(String verb, String packages) throws Exception {
    String run =
        "DEBIAN_FRONTEND=noninteractive apt-get "
            + verb
            + " -y -qq --no-install-recommends "
            + packages
            + " 2>&1";
    if (!cached) {
      return sh(run);
    }
    String archives = "/var/cache/apt/archives";
    return sh(
        "for f in "
            + SHARED
            + "/*.deb; do if [ -f \"$f\" ]; then ln -sf \"$f\" "
            + archives
            + "/; fi; done; "
            + run
            + "; for f in "
            + archives
            + "/*.deb; do if [ -f \"$f\" ] && [ ! -L \"$f\" ]; then t=$(mktemp "
            + SHARED
            + "/.tmp.XXXXXX) && cp \"$f\" \"$t\" && chmod 644 \"$t\" && mv \"$t\" "
            + SHARED
            + "/\"${f##*/}\"; fi; done");
  }

  /** The files offlink has diverted, sorted. */
  TreeSet<String> diversions() throws Exception {
    return new TreeSet<>(
        sh("dpkg-divert --list | sed -n 's/^diversion of \\(.*\\) to .* by offlink$/\\1/p'")
            .lines()
            .toList());
  }

  @Override
  public void close() {
    cpuSeconds()
        .ifPresent(
            cpu ->
                System.out.printf(
                    "%s container: %.0f s CPU in all%n", container.getDockerImageName(), cpu));
    container.close();
  }

  /**
   * The CPU time the container's processes used, from podman's cgroup (cgroupfs manager, v1 or v2),
   * for reporting what the test costs whatever else the machine runs; empty where unreadable.
   */
  private Optional<Double> cpuSeconds() {
    String id = container.getContainerId();
    try {
      Path v1 = Path.of("/sys/fs/cgroup/cpuacct/libpod_parent/libpod-" + id + "/cpuacct.usage");
      if (Files.isReadable(v1)) {
        return Optional.of(Long.parseLong(Files.readString(v1).strip()) / 1e9);
      }
      Path v2 = Path.of("/sys/fs/cgroup/libpod_parent/libpod-" + id + "/cpu.stat");
      if (Files.isReadable(v2)) {
        for (String line : Files.readAllLines(v2)) {
          if (line.startsWith("usage_usec ")) {
            return Optional.of(Long.parseLong(line.substring(11).strip()) / 1e6);
          }
        }
      }
    } catch (IOException | NumberFormatException e) {
      // Only a report: nothing to say.
    }
    return Optional.empty();
  }

  /**
   * The .deb, built by the documented {@code dpkg-buildpackage -b -us -uc} from a copy of the
   * checkout's files (tracked and untracked, not ignored) in {@code dir}.
   */
  static Path buildDeb(Path dir) throws Exception {
    Path repo = Path.of(System.getProperty("offlink.repo"));
    Path src = dir.resolve("offlink");
    String files =
        run(dir, repo, List.of("git", "ls-files", "--cached", "--others", "--exclude-standard"));
    for (String f : files.lines().toList()) {
      Path from = repo.resolve(f);
      if (!Files.exists(from, LinkOption.NOFOLLOW_LINKS)) {
        continue; // deleted in the work tree, not yet in the index
      }
      Path to = src.resolve(f);
      Files.createDirectories(to.getParent());
      Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
    }
    long start = System.nanoTime();
    run(dir, src, List.of("dpkg-buildpackage", "-b", "-us", "-uc"));
    System.out.printf("dpkg-buildpackage: %.0f s%n", (System.nanoTime() - start) / 1e9);
    try (Stream<Path> out = Files.list(dir)) {
      List<Path> debs =
          out.filter(p -> p.getFileName().toString().matches("offlink_.*_amd64\\.deb")).toList();
      assertEquals(1, debs.size(), "one offlink_<version>_amd64.deb: " + debs);
      return debs.get(0);
    }
  }

  /** Whether {@code tool} is an executable on PATH. */
  static boolean onPath(String tool) {
    for (String d : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
      if (Files.isExecutable(Path.of(d, tool))) {
        return true;
      }
    }
    return false;
  }

  private static String run(Path logs, Path cwd, List<String> argv)
      throws IOException, InterruptedException {
    Path log = Files.createTempFile(logs, "run", ".log");
    Process p =
        new ProcessBuilder(new ArrayList<>(argv))
            .directory(cwd.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    assertTrue(p.waitFor(20, TimeUnit.MINUTES), "timed out: " + argv);
    String out = Files.readString(log, StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), argv + "\n" + out);
    return out;
  }
}
