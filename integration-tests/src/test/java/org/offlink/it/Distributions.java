package org.offlink.it;

import java.util.List;

/**
 * Which Debian releases the container tests that build a whole image or machine per release
 * (DockerImageIT's images, FreshMachineIT's fresh machines) check. The test run checks trixie (the
 * Dockerfile's default, Debian's stable): each further release costs about four minutes of the
 * 2-core CI machine's hour. {@code -Dofflink.it.everyDistribution=true} (for example {@code
 * scripts/test.sh -Dofflink.it.everyDistribution=true}) adds bookworm. DebPackageIT, the package
 * itself, always runs on bookworm, trixie and sid, and the rest of the suite runs on bookworm.
 */
final class Distributions {
  /** The system property that adds bookworm. */
  static final String EVERY = "offlink.it.everyDistribution";

  private Distributions() {}

  /** The releases to check, default first. */
  static List<String> containers() {
    return Boolean.getBoolean(EVERY) ? List.of("trixie", "bookworm") : List.of("trixie");
  }
}
