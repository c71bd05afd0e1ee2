package org.offlink.streamer.io;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExitCleanupTest {
  @TempDir Path dir;

  @AfterEach
  void reset() {
    ExitCleanup.resetForTests();
  }

  @Test
  void theSweepRemovesTrackedFilesAndKeepsUntrackedOnes() throws IOException {
    Path tracked = Files.createFile(dir.resolve("a"));
    Path handedOver = Files.createFile(dir.resolve("b"));
    ExitCleanup.track(tracked);
    ExitCleanup.track(handedOver);
    ExitCleanup.untrack(handedOver);
    ExitCleanup.runNow();
    assertFalse(Files.exists(tracked));
    assertTrue(Files.exists(handedOver));
  }

  @Test
  void aFileTrackedAfterTheSweepStartedIsRemovedAtOnce() throws IOException {
    ExitCleanup.runNow();
    Path late = Files.createFile(dir.resolve("late"));
    IOException e = assertThrows(IOException.class, () -> ExitCleanup.track(late));
    assertTrue(e.getMessage().contains(late.toString()), e.getMessage());
    assertFalse(Files.exists(late));
  }

  @Test
  void theSweepEndsChildProcessesFirst() throws Exception {
    Process child = new ProcessBuilder("sleep", "60").start();
    ExitCleanup.runNow();
    assertTrue(child.waitFor(5, java.util.concurrent.TimeUnit.SECONDS), "child still running");
  }

  @Test
  void aNormalExitSweepsFilesButLeavesProcessesAlone() throws Exception {
    sweepsFilesAndLeavesAChildAlone(
        () -> {
          ExitCleanup.exitingNormally();
          ExitCleanup.runNow();
        });
  }

  @Test
  void mainFinishingNormallySweepsOnItsOwnThreadAndLeavesProcessesAlone() throws Exception {
    sweepsFilesAndLeavesAChildAlone(
        () -> assertTrue(ExitCleanup.finishNormally(), "no shutdown has begun: main may halt"));
  }

  /** {@code exit} removes a tracked file and does not end a running child (main waited for it). */
  private void sweepsFilesAndLeavesAChildAlone(Runnable exit) throws Exception {
    Path tracked = Files.createFile(dir.resolve("a"));
    ExitCleanup.track(tracked);
    Process child = new ProcessBuilder("sleep", "60").start();
    try {
      exit.run();
      assertFalse(Files.exists(tracked));
      assertTrue(
          child.isAlive(), "a normal exit has no children to end; it must not scan for them");
    } finally {
      child.destroyForcibly().waitFor();
    }
  }

  @Test
  void mainFinishingDuringASignalsShutdownLeavesTheExitToTheHook() throws IOException {
    ExitCleanup.runNow(); // the hook of a SIGTERM has started
    assertFalse(ExitCleanup.finishNormally(), "main must wait for the hook's status");
  }
}
