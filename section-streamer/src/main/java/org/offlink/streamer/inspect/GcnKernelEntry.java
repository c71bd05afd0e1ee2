package org.offlink.streamer.inspect;

import java.util.List;
import java.util.Objects;

/**
 * One {@code struct hsa_kernel_description} of GCC 12's GCN target data: kernel name, OpenACC dims,
 * and the SGPR/VGPR counts mkoffload copied from the kernel metadata.
 */
public record GcnKernelEntry(String name, List<Integer> dims, int sgprCount, int vgprCount) {
  /** Checks the fields. */
  public GcnKernelEntry {
    Objects.requireNonNull(name, "name");
    dims = List.copyOf(dims);
    if (dims.size() != 3) {
      throw new IllegalArgumentException("expected 3 dims, found " + dims.size());
    }
  }

  /** Whether libgomp's GCN plugin hides this entry ({@code _init_array}, {@code _fini_array}). */
  public boolean isConstructorTable() {
    return name.equals("_init_array") || name.equals("_fini_array");
  }
}
