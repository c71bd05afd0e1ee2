package org.offlink.bridge.partition;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.offlink.bridge.OfflinkFlags;

/**
 * What a partitioned device compile ({@code OFFLINK_FLAGS=--device-jobs=N}) runs on: the executor
 * that bounds its parallel jobs and the cache of partition artifacts.
 *
 * @param executor runs the partitions' accel compiles
 * @param cache keeps partition artifacts between links
 */
public record PartitionServices(PartitionExecutor executor, PartitionCache cache) {
  /** Checks the fields. */
  public PartitionServices {
    Objects.requireNonNull(executor, "executor");
    Objects.requireNonNull(cache, "cache");
  }

  /**
   * The services of a standalone mkoffload: {@code --device-jobs=N} threads, no cache; empty when
   * {@code OFFLINK_FLAGS} does not ask for partitioning.
   */
  public static Optional<PartitionServices> standalone(Map<String, String> environment) {
    return OfflinkFlags.fromEnvironment(environment)
        .deviceJobs()
        .map(n -> new PartitionServices(new BoundedPartitionExecutor(n), PartitionCache.NONE));
  }
}
