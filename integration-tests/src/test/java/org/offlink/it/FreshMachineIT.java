package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first command on fresh machines: {@code scripts/fresh-check.sh --demo-only} copies a
 * clean clone of HEAD into a new {@code debian:trixie} container (and {@code debian:bookworm} with
 * {@link Distributions#EVERY}) with only a JDK, Maven and git, runs {@code scripts/demo.sh} there
 * as the README writes it, and must print PASS for each. (The test command takes most of an hour
 * per distribution: fresh-check.sh without {@code --demo-only} runs it.) Skipped, saying why,
 * without root or podman, and inside fresh-check's own containers, whose check this is.
 */
class FreshMachineIT {
  @TempDir Path out;

  @Test
  void demoCommandPassesOnFreshMachines() throws Exception {
    assumeTrue(
        System.getenv("OFFLINK_FRESH_CHECK") == null,
        "inside scripts/fresh-check.sh's own container: that check is this one");
    assumeTrue(DebianRoot.canChroot(), "fresh-check.sh needs root (privileged podman)");
    assumeTrue(
        DebianContainer.onPath("podman"),
        "no podman here (scripts/setup-container-engine.sh installs it; in the GCC 12 root of a"
            + " non-bookworm machine there is none)");
    Path repo = Path.of(System.getProperty("offlink.repo"));
    Path log = out.resolve("fresh-check.out");
    List<String> argv =
        new java.util.ArrayList<>(
            List.of("scripts/fresh-check.sh", "--demo-only", "--out", out.toString()));
    for (String suite : Distributions.containers()) {
      argv.addAll(List.of("--suite", suite));
    }
    Process p =
        new ProcessBuilder(argv)
            .directory(repo.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    assertTrue(p.waitFor(60, TimeUnit.MINUTES), "fresh-check.sh timed out");
    String printed = Files.readString(log, StandardCharsets.UTF_8);
    System.out.println(printed);
    assertEquals(0, p.exitValue(), printed + logs());
    List<String> lines = printed.lines().filter(l -> l.matches("(bookworm|trixie): .*")).toList();
    assertEquals(Distributions.containers().size(), lines.size(), printed);
    for (String line : lines) {
      assertTrue(line.matches("[a-z]+: scripts/demo\\.sh PASS \\(\\d+m\\d\\ds\\)"), line + logs());
    }
  }

  /** The tail of each command's log, for a failure's message. */
  private String logs() throws Exception {
    StringBuilder b = new StringBuilder();
    try (Stream<Path> files = Files.list(out)) {
      for (Path f : files.filter(f -> f.toString().endsWith(".log")).sorted().toList()) {
        List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
        b.append("\n== ").append(f.getFileName()).append(" (last 30 lines)\n");
        lines
            .subList(Math.max(0, lines.size() - 30), lines.size())
            .forEach(l -> b.append(l).append('\n'));
      }
    }
    return b.toString();
  }
}
