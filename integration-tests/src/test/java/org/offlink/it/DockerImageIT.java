package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.utility.MountableFile;

/**
 * The repository's Dockerfile, built as {@code docker build .} builds it (its .dockerignore
 * applies): the default image (Debian trixie: GCC 14, Debian's openjdk-25) and, with {@link
 * Distributions#EVERY}, the bookworm variant ({@code --build-arg DEBIAN=bookworm}: GCC 12,
 * openjdk-17). In each, the image's default command links and runs the example with a plain {@code
 * gcc} and shows {@code offlink inspect}, as its non-root user; the JRE is the expected one and has
 * a start-up cache trained at build time; gcc's own lto-wrapper and mkoffloads are offlink's (the
 * Debian package's diversions), and a plain {@code gcc -v} link registers one nvptx image (device
 * 5) and one GCN image (device 8) under the spy. The two are built one after the other, so the
 * second reuses the first's package stage. Skipped, and reported as skipped, where no Docker engine
 * runs (scripts/setup-container-engine.sh provides one on Debian).
 */
@Testcontainers(disabledWithoutDocker = true)
class DockerImageIT {
  /**
   * CAs this machine added locally (a TLS-inspecting proxy's): Maven in the build stage needs them.
   */
  private static final Path LOCAL_CAS = Path.of("/usr/local/share/ca-certificates");

  /** The images: the default (trixie), and bookworm's with {@link Distributions#EVERY}. */
  static Stream<Arguments> images() {
    Stream<Arguments> all =
        Stream.of(Arguments.of("trixie", "", 14, 25), Arguments.of("bookworm", "bookworm", 12, 17));
    return all.filter(a -> Distributions.containers().contains((String) a.get()[0]));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("images")
  @Execution(ExecutionMode.SAME_THREAD)
  void plainGccInTheImageLinksThroughOfflinkAndRegistersBothImages(
      String name, String debianArg, int gccMajor, int javaMajor) throws Exception {
    // The package stage gets a tag of its own, like the image: a tag keeps a build's layers (its
    // apt layer is the next build's cache) and leaves the layers of earlier builds without one,
    // which scripts/test.sh removes before the next run.
    String cas = localCas();
    ImageFromDockerfile stage =
        dockerfile(new ImageFromDockerfile("offlink-it-" + name + "-build", false), debianArg, cas)
            .withTarget("build");
    stage.get();
    ImageFromDockerfile image =
        dockerfile(new ImageFromDockerfile("offlink-it-" + name, false), debianArg, cas);

    try (GenericContainer<?> container =
        new GenericContainer<>(image)
            .withCommand("sleep", "infinity")
            .withStartupTimeout(Duration.ofMinutes(2))
            .withCopyFileToContainer(
                MountableFile.forClasspathResource("interposer/gomp_register_spy.c"),
                "/tmp/spy.c")) {
      container.start();
      assertDefaultCommandRunsTheDemo(container, image);
      ExecResult id = container.execInContainer("id", "-u");
      assertNotEquals("0", id.getStdout().strip(), "the image runs as a non-root user");
      ExecResult r =
          container.execInContainer(
              "sh",
              "-c",
              "set -e; cd /tmp; gcc -dumpversion; java -version 2>&1 | head -n 1;"
                  + " ls /var/cache/offlink/cds;"
                  + " gcc -shared -fPIC spy.c -o spy.so -ldl;"
                  + " gcc -v -fopenmp -foffload=nvptx-none -foffload=amdgcn-amdhsa=-march=gfx906"
                  + " /usr/lib/offlink/examples/saxpy.c -o saxpy 2> link.log;"
                  + " w=$(gcc -print-prog-name=lto-wrapper); readlink -f $w"
                  + " $(dirname $w)/accel/nvptx-none/mkoffload"
                  + " $(dirname $w)/accel/amdgcn-amdhsa/mkoffload;"
                  + " LD_PRELOAD=/tmp/spy.so OFFLINK_SPY_OUT=/tmp/spy.txt ./saxpy;"
                  + " cat /tmp/spy.txt");
      assertEquals(0, r.getExitCode(), r.getStdout() + r.getStderr());
      String out = r.getStdout();
      assertTrue(out.startsWith(gccMajor + "\n"), "gcc " + gccMajor + ": " + out);
      assertTrue(out.contains("openjdk version \"" + javaMajor + "."), "JRE: " + out);
      // The start-up cache of that JRE: an AOT cache from JDK 25, a CDS archive before.
      assertTrue(
          out.contains("java-" + javaMajor + "-openjdk-amd64." + (javaMajor >= 25 ? "aot" : "jsa")),
          "start-up cache: " + out);
      assertTrue(out.contains("/usr/lib/offlink/libexec/offlink/lto-wrapper\n"), out);
      assertTrue(
          out.contains("/usr/lib/offlink/libexec/offlink/accel/nvptx-none/mkoffload\n"), out);
      assertTrue(
          out.contains("/usr/lib/offlink/libexec/offlink/accel/amdgcn-amdhsa/mkoffload\n"), out);
      assertTrue(out.contains("type=5"), "nvptx image registered: " + out);
      assertTrue(out.contains("type=8"), "gcn image registered: " + out);
    }
  }

  /**
   * What {@code docker run --rm offlink} runs: the image's own command, as its user, in its working
   * folder (one container: each costs a full copy of the image with vfs storage).
   */
  private static void assertDefaultCommandRunsTheDemo(
      GenericContainer<?> container, ImageFromDockerfile image) throws Exception {
    List<String> cmd =
        List.of(
            DockerClientFactory.instance()
                .client()
                .inspectImageCmd(image.get())
                .exec()
                .getConfig()
                .getCmd());
    ExecResult demo = container.execInContainer(cmd.toArray(String[]::new));
    String logs = demo.getStdout();
    assertEquals(0, demo.getExitCode(), cmd + "\n" + logs + demo.getStderr());
    assertTrue(
        Pattern.compile("saxpy: sum = (\\d+) \\(expected \\1\\)").matcher(logs).find(), logs);
    assertTrue(logs.contains("image nvptx-none ("), "offlink inspect: " + logs);
    assertTrue(logs.contains("image amdgcn-amdhsa ("), "offlink inspect: " + logs);
  }

  /** The repository's Dockerfile with the test's build arguments. */
  private static ImageFromDockerfile dockerfile(
      ImageFromDockerfile image, String debianArg, String cas) {
    image.withDockerfile(Path.of(System.getProperty("offlink.repo")).resolve("Dockerfile"));
    if (!debianArg.isEmpty()) {
      image.withBuildArg("DEBIAN", debianArg);
    }
    if (!cas.isEmpty()) {
      image.withBuildArg("EXTRA_CA_CERTS", cas);
    }
    return image;
  }

  private static String localCas() throws IOException {
    if (!Files.isDirectory(LOCAL_CAS)) {
      return "";
    }
    List<String> pems = new ArrayList<>();
    try (Stream<Path> files = Files.list(LOCAL_CAS)) {
      for (Path p : files.filter(f -> f.toString().endsWith(".crt")).sorted().toList()) {
        pems.add(Files.readString(p).strip());
      }
    }
    return String.join("\n", pems);
  }
}
