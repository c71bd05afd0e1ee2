package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.utility.MountableFile;

/**
 * The repository's Dockerfile: builds the image (offlink installed with {@code --replace-gcc}),
 * then inside it links and runs the example with a plain {@code gcc} and checks, with the
 * registration spy, that one nvptx image (device 5) and one GCN image (device 8) registered.
 * Skipped, and reported as skipped, where no Docker engine runs.
 */
@Testcontainers(disabledWithoutDocker = true)
class DockerImageIT {
  @Test
  void plainGccInTheImageLinksThroughOfflinkAndRegistersBothImages() throws Exception {
    Path repo = Path.of(System.getProperty("offlink.repo"));
    ImageFromDockerfile image =
        new ImageFromDockerfile("offlink-it", true).withFileFromPath(".", repo);
    try (GenericContainer<?> container =
        new GenericContainer<>(image)
            .withCommand("sleep", "infinity")
            .withStartupTimeout(Duration.ofMinutes(2))
            .withCopyFileToContainer(
                MountableFile.forClasspathResource("interposer/gomp_register_spy.c"),
                "/tmp/spy.c")) {
      container.start();
      ExecResult r =
          container.execInContainer(
              "sh",
              "-c",
              "set -e; cd /tmp; gcc -shared -fPIC spy.c -o spy.so -ldl;"
                  + " gcc -v -fopenmp -foffload=nvptx-none -foffload=amdgcn-amdhsa=-march=gfx906"
                  + " /opt/offlink-src/examples/saxpy.c -o saxpy 2> link.log;"
                  + " grep -c 'libexec/offlink' link.log || readlink -f"
                  + " /usr/lib/gcc/x86_64-linux-gnu/12/lto-wrapper;"
                  + " LD_PRELOAD=/tmp/spy.so OFFLINK_SPY_OUT=/tmp/spy.txt ./saxpy;"
                  + " cat /tmp/spy.txt");
      assertEquals(0, r.getExitCode(), r.getStdout() + r.getStderr());
      String out = r.getStdout();
      assertTrue(out.contains("/usr/local/libexec/offlink/"), out);
      assertTrue(out.contains("type=5"), "nvptx image registered: " + out);
      assertTrue(out.contains("type=8"), "gcn image registered: " + out);
    }
  }
}
