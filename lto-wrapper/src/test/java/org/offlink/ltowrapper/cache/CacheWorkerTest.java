package org.offlink.ltowrapper.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cache's one background thread: its jobs in order, the first one given at start first. */
class CacheWorkerTest {
  @Test
  void runsTheFirstJobThenTheOthersInOrderAndSurvivesAFailingOne() throws Exception {
    List<String> ran = Collections.synchronizedList(new ArrayList<>());
    CacheWorker worker = new CacheWorker();
    worker.start(() -> ran.add("prelude"));
    worker.submit(() -> ran.add("folder"));
    worker.submit(
        () -> {
          throw new IllegalStateException("a job that should not have thrown");
        });
    worker.submit(() -> ran.add("store"));
    QuietCaches.await(worker);
    assertEquals(List.of("prelude", "folder", "store"), ran);
  }

  @Test
  void aJobWithoutStartStartsTheThread() throws Exception {
    List<String> ran = Collections.synchronizedList(new ArrayList<>());
    CacheWorker worker = new CacheWorker();
    worker.submit(() -> ran.add("trim"));
    QuietCaches.await(worker);
    assertEquals(List.of("trim"), ran);
  }
}
