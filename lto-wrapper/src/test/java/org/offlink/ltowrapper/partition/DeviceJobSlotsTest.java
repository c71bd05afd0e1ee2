package org.offlink.ltowrapper.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.offlink.bridge.partition.PartitionJob;

class DeviceJobSlotsTest {
  private static Map<String, String> env(String flags, String collectGccOptions) {
    return Map.of(
        "OFFLINK_FLAGS", flags, "COLLECT_GCC", "gcc", "COLLECT_GCC_OPTIONS", collectGccOptions);
  }

  @Test
  void offUnlessAskedFor() {
    assertTrue(slots(Map.of(), 8).isEmpty());
    assertTrue(slots(Map.of("OFFLINK_FLAGS", "--no-cache"), 8).isEmpty());
  }

  @Test
  void fltoOnTheLinkLineBoundsTheJobsAsItBoundsGccsLtrans() {
    assertEquals(Optional.empty(), DeviceJobSlots.fltoBound(env("", "'-fopenmp' '-o' 'p'"), 8));
    assertEquals(Optional.of(3), DeviceJobSlots.fltoBound(env("", "'-flto=3' '-fopenmp'"), 8));
    assertEquals(Optional.of(8), DeviceJobSlots.fltoBound(env("", "'-flto=auto'"), 8));
    // a requested jobserver that is not there: GCC falls back to auto
    assertEquals(Optional.of(8), DeviceJobSlots.fltoBound(env("", "'-flto=jobserver'"), 8));
    assertEquals(
        "at most 2 device compile(s) at a time (2 slot(s))",
        slots(env("--device-jobs=4", "'-flto=2'"), 8).orElseThrow().describe());
    assertEquals(
        "at most 4 device compile(s) at a time (4 slot(s))",
        slots(env("--device-jobs=4", "'-fopenmp'"), 8).orElseThrow().describe());
  }

  @Test
  void resultsComeInOrderAndNoMoreRunAtOnceThanAllowed() throws IOException {
    DeviceJobSlots slots = slots(env("--device-jobs=2", "''"), 8).orElseThrow();
    AtomicInteger running = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    List<PartitionJob<Integer>> jobs = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      int n = i;
      jobs.add(
          () -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
              Thread.sleep(10);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            running.decrementAndGet();
            return n * n;
          });
    }
    List<Integer> out = slots.runAll(jobs);
    for (int i = 0; i < 12; i++) {
      assertEquals(i * i, out.get(i));
    }
    assertTrue(most.get() <= 2, "at most 2 at a time, saw " + most.get());
  }

  @Test
  void aFailedJobIsThrownAfterTheOthersEnded() {
    DeviceJobSlots slots = slots(env("--device-jobs=2", "''"), 8).orElseThrow();
    AtomicInteger ended = new AtomicInteger();
    List<PartitionJob<Integer>> jobs =
        List.of(
            () -> {
              throw new IOException("lto1 failed");
            },
            () -> {
              try {
                Thread.sleep(50);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              ended.incrementAndGet();
              return 1;
            });
    IOException e = assertThrows(IOException.class, () -> slots.runAll(jobs));
    assertEquals("lto1 failed", e.getMessage());
    assertEquals(1, ended.get());
  }

  /** The slots of a link in {@code env}, its flags parsed as the link plan parses them. */
  private static Optional<DeviceJobSlots> slots(Map<String, String> env, int cpus) {
    return DeviceJobSlots.forLink(
        org.offlink.bridge.OfflinkFlags.fromEnvironment(env).deviceJobs(),
        env,
        cpus,
        org.offlink.ltowrapper.jobs.JobserverClient::procFd);
  }
}
