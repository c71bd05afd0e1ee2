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

  /**
   * A cancel removes a folder of the link's (its children's TMPDIR) with what they left in it, and
   * what an ended LLVM linker left beside a tracked output ({@code <output>.tmp} and seven
   * characters); another file that merely starts with the same letters stays.
   */
  @Test
  void cancellingRemovesTheChildrensFolderAndWriterTemporaries() throws IOException {
    Path folder = TempDirectory.createFolder(scope, dir, ".d");
    Files.createDirectories(folder.resolve("sub"));
    Files.writeString(folder.resolve("sub/ccAbCdEf.o"), "x");
    Files.writeString(folder.resolve("cc123456"), "");
    Path hsaco = TempDirectory.createFile(scope, dir, ".mkoffload.hsaco");
    Path writerTemp = dir.resolve(hsaco.getFileName() + ".tmpffbf3d3");
    Files.writeString(writerTemp, "");
    Path other = dir.resolve(hsaco.getFileName() + "2");
    Files.writeString(other, "");
    scope.cancel();
    try (var left = Files.list(dir)) {
      assertEquals(java.util.List.of(other), left.toList());
    }
  }

  /**
   * A link whose child a signal ended fails normally, and its close removes what that child's own
   * writer left beside a tracked output; a link whose children all exited leaves such files alone.
   */
  @Test
  void closingAfterAChildWasKilledRemovesWriterTemporaries() throws Exception {
    Path out = TempDirectory.createFile(scope, dir, ".hsaco");
    Path writerTemp = Files.writeString(dir.resolve(out.getFileName() + ".tmp1234567"), "");
    LinkScope other = LinkScope.withUmask(022);
    Path otherOut = TempDirectory.createFile(other, dir, ".hsaco");
    Path otherTemp = Files.writeString(dir.resolve(otherOut.getFileName() + ".tmp1234567"), "");
    Process killed = scope.start(new ProcessBuilder("sh", "-c", "kill -HUP $$"));
    killed.waitFor();
    scope.childEnded(killed);
    Process exited = other.start(new ProcessBuilder("false"));
    exited.waitFor();
    other.childEnded(exited);
    scope.close();
    other.close();
    assertFalse(Files.exists(writerTemp));
    assertTrue(Files.exists(otherTemp), "no child of that link was killed");
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
    Process ours = scope.start(new ProcessBuilder("sleep", "60"));
    Process another = LinkScope.withUmask(022).start(new ProcessBuilder("sleep", "60"));
    try {
      scope.cancel();
      assertTrue(ours.waitFor(5, TimeUnit.SECONDS), "the link's child still runs");
      assertTrue(another.isAlive(), "another link's child was ended");
    } finally {
      another.destroyForcibly().waitFor();
    }
  }

  /** After a cancel nothing starts: no child can outlive the cancel's sweep. */
  @Test
  void noChildStartsAfterTheCancel() throws Exception {
    scope.cancel();
    Path mark = dir.resolve("started");
    assertThrows(
        LinkScope.CancelledException.class,
        () -> scope.start(new ProcessBuilder("touch", mark.toString())));
    Thread.sleep(100);
    assertFalse(Files.exists(mark), "a child ran after the cancel");
  }

  @Test
  void closingSweepsFilesAndLeavesProcessesAlone() throws Exception {
    Path tracked = Files.createFile(dir.resolve("a"));
    scope.track(tracked);
    Process child = scope.start(new ProcessBuilder("sleep", "60"));
    try {
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

  /** An Observer that writes down what it hears, one line per event. */
  private static class Recording implements LinkScope.Observer {
    final java.util.List<String> events = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public void fileTracked(Path file) {
      events.add("+file " + file.getFileName());
    }

    @Override
    public void fileUntracked(Path file) {
      events.add("-file " + file.getFileName());
    }

    @Override
    public void childStarted(long pid) {
      events.add("+child");
    }

    @Override
    public void childEnded(long pid) {
      events.add("-child");
    }
  }

  @Test
  void aClientsScopeTellsItsObserverOfEveryFileAndChild() throws Exception {
    Recording seen = new Recording();
    LinkScope client = LinkScope.forClient(077, Path.of("/x/offlink-exec"), seen);
    Path a = Files.createFile(dir.resolve("a"));
    Path b = Files.createFile(dir.resolve("b"));
    client.track(a);
    client.track(b);
    client.untrack(a);
    client.untrack(a); // twice: told once
    Process child = client.start(new ProcessBuilder("true"));
    child.waitFor();
    client.childEnded(child);
    client.close(); // b is swept, and that is told too
    assertEquals(
        java.util.List.of("+file a", "+file b", "-file a", "+child", "-child", "-file b"),
        seen.events);
    assertEquals(0600, client.newFileMode());
  }

  @Test
  void aFileTheLinkCreatesIsToldBeforeItExistsAndAHandedOverOneIsNeverUntold() throws Exception {
    java.util.List<String> existedWhenTold = new java.util.concurrent.CopyOnWriteArrayList<>();
    Recording seen =
        new Recording() {
          @Override
          public void fileTracked(Path file) {
            super.fileTracked(file);
            existedWhenTold.add(file.getFileName() + " " + Files.exists(file));
          }
        };
    LinkScope client = LinkScope.forClient(077, Path.of("/x/offlink-exec"), seen);
    Path made = dir.resolve("cc111111.target.o");
    client.create(made, () -> Files.createFile(made));
    Path taken = Files.createFile(dir.resolve("cc222222.o"));
    assertThrows(
        java.nio.file.FileAlreadyExistsException.class,
        () -> client.create(taken, () -> Files.createFile(taken)));
    client.handOver(made);
    client.close();
    // A server killed between a creation and its report left the file unknown to its client; the
    // handed-over object stays the client's to remove until the link has ended.
    assertEquals(java.util.List.of("cc111111.target.o false", "cc222222.o true"), existedWhenTold);
    assertEquals(
        java.util.List.of("+file cc111111.target.o", "+file cc222222.o", "-file cc222222.o"),
        seen.events);
    assertTrue(Files.exists(made));
    assertTrue(Files.exists(taken), "a name someone else holds is not the link's to remove");
  }

  @Test
  void aClientsChildrenStartThroughTheExecHelperWithTheClientsUmask() {
    LinkScope client =
        LinkScope.forClient(027, Path.of("/x/offlink-exec"), LinkScope.Observer.NONE);
    assertEquals(
        java.util.List.of("/x/offlink-exec", "27", "/usr/bin/gcc", "/usr/bin/gcc", "-v"),
        client.childCommand(java.util.List.of("/usr/bin/gcc", "-v")));
    assertEquals(
        java.util.List.of("/usr/bin/gcc", "-v"),
        scope.childCommand(java.util.List.of("/usr/bin/gcc", "-v")),
        "a command line's link starts its children itself");
    assertEquals(
        java.util.Optional.of("error=2, No such file or directory"),
        client.startFailure(127, "offlink-exec: error=2, No such file or directory\n"));
    assertEquals(java.util.Optional.empty(), client.startFailure(127, "gcc: fatal error: x\n"));
    assertEquals(java.util.Optional.empty(), client.startFailure(1, "offlink-exec: error=2, x"));
    assertEquals(java.util.Optional.empty(), scope.startFailure(127, "offlink-exec: error=2, x"));
  }

  @Test
  void aCancelWaitsForAPublicationUnderWayAndItsSweepRemovesWhatWasPublished() throws Exception {
    Path output = dir.resolve("cc123456.target.o");
    scope.track(output);
    java.util.concurrent.CountDownLatch renaming = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch proceed = new java.util.concurrent.CountDownLatch(1);
    Thread writer =
        new Thread(
            () -> {
              try {
                scope.publish(
                    output,
                    () -> {
                      renaming.countDown();
                      try {
                        proceed.await();
                      } catch (InterruptedException e) {
                        throw new IOException(e);
                      }
                      Files.writeString(output, "object");
                    });
              } catch (IOException | RuntimeException e) {
                throw new AssertionError(e);
              }
            });
    writer.start();
    assertTrue(renaming.await(10, TimeUnit.SECONDS));
    Thread canceller = new Thread(scope::cancel);
    canceller.start();
    canceller.join(300);
    assertTrue(canceller.isAlive(), "the cancel did not wait for the rename under way");
    proceed.countDown();
    writer.join(10_000);
    canceller.join(10_000);
    assertFalse(Files.exists(output), "the sweep ran before the rename");
    IOException e =
        assertThrows(
            IOException.class, () -> scope.publish(output, () -> Files.writeString(output, "x")));
    assertEquals(output + ": interrupted", e.getMessage());
    assertFalse(Files.exists(output), "a cancelled link publishes nothing");
  }

  @Test
  void aHandedOverFileOutlivesCloseButNotACancel() throws Exception {
    Path kept = Files.writeString(dir.resolve("kept.target.o"), "object");
    LinkScope ended = LinkScope.withUmask(022);
    ended.track(kept);
    ended.handOver(kept);
    ended.close();
    assertTrue(Files.exists(kept), "the caller's after a normal end");

    Path printed = Files.writeString(dir.resolve("printed.target.o"), "object");
    scope.track(printed);
    scope.handOver(printed);
    scope.close();
    scope.cancel(); // a signal before the process (or the server's session) has ended
    assertFalse(Files.exists(printed), "a cancel removes what the link handed over");
  }

  @Test
  void aHelperWaitsForTheLinksNextChildStartAtMostItsTimeout() throws Exception {
    LinkScope scope = LinkScope.withProcessUmask();
    long seen = scope.childrenStarted();
    long t0 = System.nanoTime();
    scope.awaitChildStart(seen, 100); // nothing starts: the timeout ends the wait
    assertTrue(System.nanoTime() - t0 >= 90_000_000L);
    java.util.concurrent.CountDownLatch released = new java.util.concurrent.CountDownLatch(1);
    Thread helper =
        new Thread(
            () -> {
              try {
                scope.awaitChildStart(seen, 60_000);
                released.countDown();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    helper.start();
    Thread.sleep(100);
    assertEquals(1, released.getCount(), "no child yet: still waiting");
    Process child = scope.start(new ProcessBuilder("true"));
    assertTrue(released.await(10, TimeUnit.SECONDS));
    assertEquals(seen + 1, scope.childrenStarted());
    child.waitFor();
    scope.childEnded(child);
    t0 = System.nanoTime();
    scope.cancel();
    scope.awaitChildStart(scope.childrenStarted(), 60_000); // cancelled: no wait
    assertTrue(System.nanoTime() - t0 < 10_000_000_000L);
  }
}
