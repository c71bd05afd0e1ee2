package org.offlink.bridge.partition;

import java.util.List;
import java.util.Objects;
import org.offlink.bridge.image.GcnKernel;
import org.offlink.bridge.tool.OffloadTarget;

/**
 * What one partition's accel compile leaves for the image's link step; also what the partition
 * cache stores ({@link PartitionArtifactWriter}).
 *
 * @param target the target it was compiled for
 * @param requiresMask GCC 13+'s OpenMP {@code requires} mask the partition's {@code lto1} wrote (0
 *     for GCC 12)
 * @param object nvptx: the PTX object ({@code -c} output); gcn: the assembled ELF object of the
 *     processed assembly
 * @param kernels gcn: the partition's kernels in table order, without {@code _init_array} and
 *     {@code _fini_array} (empty for nvptx)
 * @param variables gcn: the partition's offload variables (0 for nvptx)
 * @param indirectFunctions gcn: the partition's indirect functions (0 for nvptx)
 */
public record PartitionArtifact(
    OffloadTarget target,
    int requiresMask,
    byte[] object,
    List<GcnKernel> kernels,
    int variables,
    int indirectFunctions) {
  /** Checks the fields; the array is not copied. */
  public PartitionArtifact {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(object, "object");
    kernels = List.copyOf(kernels);
    if (variables < 0 || indirectFunctions < 0) {
      throw new IllegalArgumentException("negative count");
    }
  }

  /** An nvptx partition's artifact. */
  public static PartitionArtifact nvptx(int requiresMask, byte[] ptxObject) {
    return new PartitionArtifact(OffloadTarget.NVPTX, requiresMask, ptxObject, List.of(), 0, 0);
  }
}
