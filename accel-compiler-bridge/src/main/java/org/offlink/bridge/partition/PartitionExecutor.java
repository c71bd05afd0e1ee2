package org.offlink.bridge.partition;

import java.io.IOException;
import java.util.List;

/**
 * Runs partition jobs concurrently, at most as many at a time as the executor allows: {@code
 * --device-jobs=N}, and inside lto-wrapper also the make jobserver or {@code -flto=N}.
 */
public interface PartitionExecutor {
  /**
   * Runs {@code jobs} and returns their results in the same order. If any fails, waits for the
   * others (so no child outlives the call) and throws the first failure.
   */
  <T> List<T> runAll(List<PartitionJob<T>> jobs) throws IOException;
}
