package org.offlink.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LinkScopeTest {
  @TempDir Path dir;

  private final LinkScope scope = LinkScope.withUmask(022);

  @Test
  void cancellingRemovesTrackedFilesAndKeepsUntrackedOnes() throws IOException {
    Path tracked = Files.createFile(dir.resolve("a"));
    Path handedOver = Files.createFile(dir.resolve("b"));
    scope.track(tracked);
    scope.track(handedOver);
    scope.untrack(handedOver);
    scope.cancel();
    assertFalse(Files.exists(tracked));
    assertTrue(Files.exists(handedOver));
    assertTrue(scope.cancelled());
  }

  @Test
  void aFileTrackedAfterTheCancelIsRemovedAtOnce() throws IOException {
    scope.cancel();
    Path late = Files.createFile(dir.resolve("late"));
    IOException e = assertThrows(IOException.class, () -> scope.track(late));
    assertTrue(e.getMessage().contains(late.toString()), e.getMessage());
    assertFalse(Files.exists(late));
  }

  @Test
  void cancellingEndsTheLinksChildrenAndOnlyThose() throws Exception {
    Process ours = new ProcessBuilder("sleep", "60").start();
    Process another = new ProcessBuilder("sleep", "60").start();
    try {
      scope.childStarted(ours);
      LinkScope.withUmask(022).childStarted(another);
      scope.cancel();
      assertTrue(ours.waitFor(5, TimeUnit.SECONDS), "the link's child still runs");
      assertTrue(another.isAlive(), "another link's child was ended");
    } finally {
      another.destroyForcibly().waitFor();
    }
  }

  @Test
  void aChildStartedAfterTheCancelIsEndedAtOnce() throws Exception {
    scope.cancel();
    Process late = new ProcessBuilder("sleep", "60").start();
    assertThrows(IOException.class, () -> scope.childStarted(late));
    assertTrue(late.waitFor(5, TimeUnit.SECONDS), "the late child still runs");
  }

  @Test
  void closingSweepsFilesAndLeavesProcessesAlone() throws Exception {
    Path tracked = Files.createFile(dir.resolve("a"));
    scope.track(tracked);
    Process child = new ProcessBuilder("sleep", "60").start();
    try {
      scope.childStarted(child);
      scope.close();
      assertFalse(Files.exists(tracked));
      assertTrue(child.isAlive(), "a normal end has no children to end");
      assertFalse(scope.cancelled());
    } finally {
      child.destroyForcibly().waitFor();
    }
  }

  @Test
  void newFilesGetTheUmasksMode() {
    assertEquals(0640, LinkScope.withUmask(027).newFileMode());
    assertEquals(0644, LinkScope.withUmask(022).newFileMode());
    assertEquals(0666 & ~Umask.ofProcess(), LinkScope.withProcessUmask().newFileMode());
    assertThrows(IllegalArgumentException.class, () -> LinkScope.withUmask(01000));
  }
}
