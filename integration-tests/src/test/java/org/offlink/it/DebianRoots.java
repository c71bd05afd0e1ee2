package org.offlink.it;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Which GCC versions' Debian roots the multi-version tests use. {@code OFFLINK_TEST_GCC_VERSIONS}
 * (a comma list; scripts/test.sh sets it after building the roots) makes each listed version's root
 * required (a missing root fails the test, so CI cannot pass by skipping) and skips the versions
 * not listed ({@code 12} alone skips them all); unset, versions whose roots exist run and the
 * others are skipped, naming the command that builds them.
 */
final class DebianRoots {
  static final String VERSIONS = "OFFLINK_TEST_GCC_VERSIONS";

  private DebianRoots() {}

  /** The root for {@code major}, or a skip/failure as described above. */
  static Path require(int major) {
    Optional<Path> root = DebianRoot.find(major);
    String build = "scripts/setup-toolchain.sh --gcc " + major + " builds it";
    Optional<List<String>> listed = listed();
    if (listed.isPresent()) {
      assumeTrue(listed.get().contains(Integer.toString(major)), VERSIONS + " leaves out " + major);
      if (root.isEmpty()) {
        fail(
            "GCC "
                + major
                + " is listed in "
                + VERSIONS
                + " but its root is missing ("
                + build
                + ")");
      }
    } else {
      assumeTrue(
          root.isPresent(),
          "skipped GCC "
              + major
              + ": no root under "
              + DebianRoot.rootsDirectory()
              + " ("
              + build
              + ")");
    }
    if (!DebianRoot.canChroot()) {
      fail("GCC " + major + ": the root exists but chroot needs root");
    }
    return root.get();
  }

  private static Optional<List<String>> listed() {
    String v = System.getenv(VERSIONS);
    if (v == null || v.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(Arrays.stream(v.split(",")).map(String::trim).toList());
  }

  /**
   * A JDK the roots can run offlink with: the one the tree recorded at build time ({@code
   * lib/java.conf}; a self-contained Temurin needs nothing from the root), else the test JVM's.
   */
  static Path javaHome() throws IOException {
    Path conf = Toolchain.offlinkDist().resolve("lib/java.conf");
    if (Files.isReadable(conf)) {
      String java = Files.readString(conf).trim();
      Path home = Path.of(java).getParent();
      if (home != null && home.getParent() != null && Files.isExecutable(Path.of(java))) {
        return home.getParent();
      }
    }
    return Path.of(System.getProperty("java.home"));
  }
}
