package org.offlink.bridge.image;

import java.util.List;
import java.util.Objects;

/**
 * What GCC 12's gcn mkoffload registers: the HSACO bytes, the kernel table (always starting with
 * {@code _init_array} and {@code _fini_array}) and the number of global variables.
 */
public record GcnImage(byte[] hsaco, List<GcnKernel> kernels, int globalVariableCount) {
  /** Copies the kernel list and checks the counts. */
  public GcnImage {
    Objects.requireNonNull(hsaco, "hsaco");
    kernels = List.copyOf(Objects.requireNonNull(kernels, "kernels"));
    if (globalVariableCount < 0) {
      throw new IllegalArgumentException("negative variable count " + globalVariableCount);
    }
  }
}
