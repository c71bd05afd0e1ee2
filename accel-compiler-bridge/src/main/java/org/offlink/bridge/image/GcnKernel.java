package org.offlink.bridge.image;

import java.util.Objects;

/**
 * One {@code hsa_kernel_description} entry of GCC 12's gcn mkoffload: kernel name (with {@code .}
 * kept), OpenACC dims (0 when none were recorded) and the sgpr/vgpr counts from the AMDGPU metadata
 * (0 when none).
 */
public record GcnKernel(String name, int dim0, int dim1, int dim2, int sgprCount, int vgprCount) {
  /** Checks the name is present. */
  public GcnKernel {
    Objects.requireNonNull(name, "name");
  }
}
