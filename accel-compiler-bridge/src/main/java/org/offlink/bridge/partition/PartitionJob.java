package org.offlink.bridge.partition;

import java.io.IOException;

/**
 * One partition's work (its accel compile, or fetching it from the cache).
 *
 * @param <T> what it yields
 */
@FunctionalInterface
public interface PartitionJob<T> {
  /** Does the work. */
  T run() throws IOException;
}
