package org.offlink.bridge.partition;

import java.util.List;
import java.util.Optional;
import org.offlink.bridge.tool.OffloadTarget;

/**
 * Where partition artifacts are kept between links, so that a relink after a change to one unit's
 * device code recompiles only that unit's partition. lto-wrapper backs it with its device-image
 * cache (local folder and remote cache); a standalone mkoffload has none ({@link #NONE}).
 *
 * <p>An artifact is keyed by what decides its bytes: the target, the commands that make it (with
 * the inputs and temporary names standing in as placeholders) and the bytes of its inputs' offload
 * IR; the implementation adds the accel toolchain and offlink itself.
 */
public interface PartitionCache {
  /** No cache: every partition is compiled. */
  PartitionCache NONE =
      new PartitionCache() {
        @Override
        public Optional<byte[]> find(OffloadTarget target, List<String> recipe, List<String> in) {
          return Optional.empty();
        }

        @Override
        public void store(
            OffloadTarget target, List<String> recipe, List<String> in, PartitionArtifact a) {}
      };

  /**
   * The encoded artifact ({@link PartitionArtifactWriter}) stored for this partition, if any.
   *
   * @param target the target
   * @param recipe the commands that make the artifact, one argv after the other (argv[0] of each a
   *     label, not a path)
   * @param inputs the partition's inputs as spelled on the command line, in order
   */
  Optional<byte[]> find(OffloadTarget target, List<String> recipe, List<String> inputs);

  /** Stores a freshly compiled artifact under the same key as {@link #find}; never fails. */
  void store(
      OffloadTarget target, List<String> recipe, List<String> inputs, PartitionArtifact artifact);
}
