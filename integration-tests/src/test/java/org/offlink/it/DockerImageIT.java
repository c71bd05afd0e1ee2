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
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.utility.MountableFile;

/**
 * The repository's Dockerfile, built as {@code docker build .} builds it (its .dockerignore
 * applies): the image's default command links and runs the example with a plain {@code gcc} and
 * shows {@code offlink inspect}, as its non-root user; inside it a plain {@code gcc -v} link runs
 * offlink in place of GCC's lto-wrapper ({@code --replace-gcc}) and the registration spy sees one
 * nvptx image (device 5) and one GCN image (device 8). Skipped, and reported as skipped, where no
 * Docker engine runs (scripts/setup-container-engine.sh provides one on Debian).
 */
@Testcontainers(disabledWithoutDocker = true)
class DockerImageIT {
  /**
   * CAs this machine added locally (a TLS-inspecting proxy's): Maven in the build stage needs them.
   */
  private static final Path LOCAL_CAS = Path.of("/usr/local/share/ca-certificates");

  @Test
  void plainGccInTheImageLinksThroughOfflinkAndRegistersBothImages() throws Exception {
    Path repo = Path.of(System.getProperty("offlink.repo"));
    ImageFromDockerfile image =
        new ImageFromDockerfile("offlink-it", true).withDockerfile(repo.resolve("Dockerfile"));
    String cas = localCas();
    if (!cas.isEmpty()) {
      image.withBuildArg("EXTRA_CA_CERTS", cas);
    }

    try (GenericContainer<?> container =
        new GenericContainer<>(image)
            .withCommand("sleep", "infinity")
            .withStartupTimeout(Duration.ofMinutes(2))
            .withCopyFileToContainer(
                MountableFile.forClasspathResource("interposer/gomp_register_spy.c"),
                "/tmp/spy.c")) {
      container.start();
      // What `docker run --rm offlink` runs: the image's own command, as its user, in its
      // working folder (one container: each costs a full copy of the image with vfs storage).
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
      ExecResult id = container.execInContainer("id", "-u");
      assertNotEquals("0", id.getStdout().strip(), "the image runs as a non-root user");
      ExecResult r =
          container.execInContainer(
              "sh",
              "-c",
              "set -e; cd /tmp; gcc -shared -fPIC spy.c -o spy.so -ldl;"
                  + " gcc -v -fopenmp -foffload=nvptx-none -foffload=amdgcn-amdhsa=-march=gfx906"
                  + " /opt/offlink-src/examples/saxpy.c -o saxpy 2> link.log;"
                  + " readlink -f /usr/lib/gcc/x86_64-linux-gnu/12/lto-wrapper"
                  + " /usr/lib/gcc/x86_64-linux-gnu/12/accel/nvptx-none/mkoffload;"
                  + " LD_PRELOAD=/tmp/spy.so OFFLINK_SPY_OUT=/tmp/spy.txt ./saxpy;"
                  + " cat /tmp/spy.txt");
      assertEquals(0, r.getExitCode(), r.getStdout() + r.getStderr());
      String out = r.getStdout();
      assertTrue(out.contains("/usr/local/libexec/offlink/lto-wrapper\n"), out);
      assertTrue(out.contains("/usr/local/libexec/offlink/accel/nvptx-none/mkoffload\n"), out);
      assertTrue(out.contains("type=5"), "nvptx image registered: " + out);
      assertTrue(out.contains("type=8"), "gcn image registered: " + out);
    }
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
