package org.offlink.bridge.partition;

import java.io.IOException;
import java.util.List;
import org.offlink.bridge.tool.OffloadTarget;

/** One target's accel compile of a partition, for {@link PartitionedCompile}. */
public interface PartitionCompiler {
  /** The target. */
  OffloadTarget target();

  /**
   * The commands that make a partition's artifact from {@code inputs}, for its cache key: each an
   * argv with a label for argv[0] and placeholders for the files it writes.
   */
  List<String> recipe(List<String> inputs);

  /** Compiles partition {@code p}, whose inputs are {@code inputs}. */
  PartitionArtifact compile(Partition p, List<String> inputs) throws IOException;

  /** The symbols of a compiled (or cached) partition. */
  PartitionSymbols symbols(PartitionArtifact artifact) throws IOException;
}
