package org.offlink.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildEndingTest {
  @TempDir Path dir;

  /**
   * A child that forks every few milliseconds, each grandchild sleeping and then writing a file (as
   * an accel driver forks {@code lto1}, which writes its {@code .s}): once the children are ended,
   * none of the tree runs anywhere, not even a grandchild forked while the tree was being listed
   * and orphaned when its parent died (no longer a descendant, so found by its command line, which
   * every subshell of the forking {@code sh} shares). A plain list-then-SIGTERM leaves a few such
   * orphans here in every round.
   */
  @Test
  void aForkingChildLeavesNoProcessOfItsTreeRunning() throws Exception {
    // The freeze needs kill(1), which the package depends on (procps) and the set-up scripts
    // install.
    assertTrue(
        Files.isExecutable(Path.of("/bin/kill")) || Files.isExecutable(Path.of("/usr/bin/kill")),
        "no kill(1) on this machine: install procps (scripts/setup-toolchain.sh does)");
    for (int round = 0; round < 3; round++) {
      Path out = Files.createDirectory(dir.resolve("round" + round));
      // SIGHUP at its default, as in endedLooper: under nohup the tree would ignore the SIGHUP that
      // ends it, and keep forking through the grace period until it is thousands strong.
      new ProcessBuilder(
              "env",
              "--default-signal=HUP",
              "sh",
              "-c",
              "while :; do (sleep 30; : > \"$0/late\") & sleep 0.002; done",
              out.toString())
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start();
      Thread.sleep(200);
      ChildEnding.endAll(2000);
      List<ProcessHandle> left = runningWith(out.toString());
      left.forEach(ProcessHandle::destroyForcibly);
      assertEquals(List.of(), left.stream().map(ProcessHandle::pid).toList(), "round " + round);
    }
  }

  /**
   * A child that removes its temporary file on SIGHUP, as GCC's driver and {@code collect2} do (and
   * as {@code collect2} does not on SIGTERM): ended, it has had the chance to, and has.
   */
  @Test
  void aChildThatCleansUpOnHangupHasDoneSoWhenEnded() throws Exception {
    Path temp = dir.resolve("cdtor.c");
    Process child = endedLooper("trap 'rm -f \"$0\"; exit 129' HUP", temp);
    assertEquals(false, ChildEnding.running(child.toHandle()));
    assertEquals(false, Files.exists(temp), "the child's temporary file");
    child.waitFor();
  }

  /**
   * A child that ignores SIGHUP (and its children with it) is ended by the SIGTERM that follows.
   */
  @Test
  void aChildThatIgnoresHangupIsEndedAllTheSame() throws Exception {
    Path started = dir.resolve("started");
    Process child = endedLooper("trap '' HUP", started);
    assertEquals(false, ChildEnding.running(child.toHandle()));
    assertEquals(List.of(), runningWith(started.toString()));
    child.waitFor();
  }

  /**
   * Starts {@code sh} with {@code trap}, which then makes {@code file} and loops on {@code sleep};
   * once the file is there, ends every child of this JVM and returns the {@code sh}.
   */
  private static Process endedLooper(String trap, Path file) throws Exception {
    // SIGHUP at its default first: a shell cannot trap a signal ignored on entry, and a JVM
    // started under nohup passes SIGHUP on ignored.
    Process child =
        new ProcessBuilder(
                "env",
                "--default-signal=HUP",
                "sh",
                "-c",
                trap + "; : > \"$0\"; while :; do sleep 0.01; done",
                file.toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    awaitFile(file);
    ChildEnding.endAll(2000);
    return child;
  }

  private static void awaitFile(Path file) throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!Files.exists(file) && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertTrue(Files.exists(file), file + " was never made");
  }

  /**
   * The freeze lists the tree again only once its SIGSTOPs have taken effect, which it reads from
   * {@code /proc}: a sleeping child is not stopped, a SIGSTOPped one is, and one gone counts too.
   */
  @Test
  void aChildIsSeenStoppedOnlyOnceItHasStopped() throws Exception {
    Process child = new ProcessBuilder("sleep", "30").start();
    ProcessHandle handle = child.toHandle();
    assertEquals(false, ChildEnding.stoppedOrGone(handle));
    new ProcessBuilder("kill", "-STOP", Long.toString(child.pid())).start().waitFor();
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (!ChildEnding.stoppedOrGone(handle) && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    assertEquals(true, ChildEnding.stoppedOrGone(handle));
    assertEquals(true, ChildEnding.running(handle), "a stopped child still runs");
    child.destroyForcibly().waitFor();
    assertEquals(true, ChildEnding.stoppedOrGone(handle));
  }

  @Test
  void aZombieDoesNotCountAsRunning() throws Exception {
    Process child = new ProcessBuilder("true").start();
    ProcessHandle handle = child.toHandle();
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (ChildEnding.running(handle) && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertEquals(false, ChildEnding.running(handle));
    child.waitFor();
  }

  private static List<ProcessHandle> runningWith(String mark) throws IOException {
    try (var pids = Files.list(Path.of("/proc"))) {
      return pids.map(p -> p.getFileName().toString())
          .filter(name -> name.chars().allMatch(Character::isDigit))
          .filter(pid -> commandLine(pid).contains(mark))
          .flatMap(pid -> ProcessHandle.of(Long.parseLong(pid)).stream())
          .filter(ChildEnding::running)
          .toList();
    }
  }

  private static String commandLine(String pid) {
    try {
      return new String(
          Files.readAllBytes(Path.of("/proc", pid, "cmdline")), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
