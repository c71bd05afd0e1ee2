package org.offlink.ltowrapper.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileInputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The jobserver client against a real FIFO holding tokens, and against a real {@code make -j3}. */
class JobserverClientTest {
  @TempDir Path dir;

  private Path fifo() throws Exception {
    Path fifo = dir.resolve("jobserver");
    Process p = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
    assertEquals(0, p.waitFor());
    return fifo;
  }

  @Test
  void fifoTokensAreTakenAndReturned() throws Exception {
    Path fifo = fifo();
    try (RandomAccessFile make = new RandomAccessFile(fifo.toFile(), "rw")) {
      make.write("ab".getBytes(StandardCharsets.US_ASCII)); // make's two spare tokens (-j3)
      JobserverAuth auth = new JobserverAuth(-1, -1, Optional.of(fifo.toString()));
      JobserverClient client = JobserverClient.connect(auth, JobserverClient::procFd);
      TokenPool.Token implicit = client.acquire();
      TokenPool.Token t1 = client.acquire();
      TokenPool.Token t2 = client.acquire();
      CompletableFuture<TokenPool.Token> fourth =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return client.acquire();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      assertThrowsTimeout(fourth);
      t1.close(); // gives 'a' or 'b' back: the blocked acquire proceeds
      TokenPool.Token t3 = fourth.get(5, TimeUnit.SECONDS);
      implicit.close();
      t3.close();
      t2.close();
      t2.close(); // idempotent
      client.close();
      FileInputStream in = new FileInputStream(make.getFD());
      assertEquals(2, in.available(), "both tokens are back in the jobserver");
    }
  }

  @Test
  void closeReturnsTokensStillHeld() throws Exception {
    Path fifo = fifo();
    try (RandomAccessFile make = new RandomAccessFile(fifo.toFile(), "rw")) {
      make.write('x');
      JobserverClient client =
          JobserverClient.connect(
              new JobserverAuth(-1, -1, Optional.of(fifo.toString())), JobserverClient::procFd);
      client.acquire();
      client.acquire(); // reads 'x', never released by the job
      client.close();
      assertEquals('x', make.read());
    }
  }

  @Test
  void schedulerBoundedByJobserver() throws Exception {
    Path fifo = fifo();
    try (RandomAccessFile make = new RandomAccessFile(fifo.toFile(), "rw")) {
      make.write("+".getBytes(StandardCharsets.US_ASCII)); // -j2: one spare token
      JobserverClient client =
          JobserverClient.connect(
              new JobserverAuth(-1, -1, Optional.of(fifo.toString())), JobserverClient::procFd);
      java.util.concurrent.atomic.AtomicInteger running =
          new java.util.concurrent.atomic.AtomicInteger();
      java.util.concurrent.atomic.AtomicInteger peak =
          new java.util.concurrent.atomic.AtomicInteger();
      List<java.util.concurrent.Future<Integer>> jobs = new java.util.ArrayList<>();
      try (JobScheduler s = new JobScheduler(client)) {
        for (int i = 0; i < 6; i++) {
          int n = i;
          jobs.add(
              s.submit(
                  () -> {
                    peak.accumulateAndGet(running.incrementAndGet(), Math::max);
                    Thread.sleep(50);
                    running.decrementAndGet();
                    return n;
                  }));
        }
        assertEquals(List.of(0, 1, 2, 3, 4, 5), JobScheduler.awaitAll(jobs));
      }
      client.close();
      assertEquals(2, peak.get(), "implicit slot + one jobserver token");
    }
  }

  /** A real GNU make hands the pipe form (--jobserver-auth=R,W) to a '+' recipe. */
  @Test
  void realMakePipeJobserver() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Files.writeString(
        dir.resolve("Makefile"),
        "all:\n\t+@\"$(JAVA)\" -cp \"$(CP)\" " + JobserverProbe.class.getName() + "\n");
    Process make =
        new ProcessBuilder(
                "make",
                "-s",
                "-j3",
                "-C",
                dir.toString(),
                "JAVA=" + java,
                "CP=" + System.getProperty("java.class.path"))
            .redirectErrorStream(true)
            .start();
    assertTrue(make.waitFor(60, TimeUnit.SECONDS), "make finished");
    String out = new String(make.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, make.exitValue(), out);
    assertTrue(out.contains("pipe jobserver: 3 slots"), out);
  }

  private static void assertThrowsTimeout(CompletableFuture<?> f) throws Exception {
    try {
      f.get(300, TimeUnit.MILLISECONDS);
      assertFalse(true, "acquire should block while all tokens are held");
    } catch (TimeoutException expected) {
      // blocked, as it should be
    }
  }
}
