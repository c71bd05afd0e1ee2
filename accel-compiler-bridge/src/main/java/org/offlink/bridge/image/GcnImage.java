package org.offlink.bridge.image;

import java.util.List;
import java.util.Objects;

/**
 * What a gcn mkoffload registers: the HSACO bytes, the kernel table (always starting with {@code
 * _init_array} and {@code _fini_array}), the number of global variables, and from GCC 13 on the
 * OpenMP requires mask read back from the accel compiler and (14+) the number of indirect
 * functions; {@code layout} says which release's data structure carries them. {@code stackSize} is
 * 13+'s {@code -mstack-size=} (0: none), {@code hsacoName} the HSACO's name as mkoffload knows it
 * (GCC 15's C file {@code #embed}s it) and {@code hsaXnack} what GCC 16's wrapper does with {@code
 * HSA_XNACK} before registering.
 */
public record GcnImage(
    byte[] hsaco,
    List<GcnKernel> kernels,
    int globalVariableCount,
    GcnDataLayout layout,
    long requiresMask,
    int indirectFunctionCount,
    int stackSize,
    String hsacoName,
    HsaXnack hsaXnack)
    implements DeviceImage {
  /** Copies the kernel list and checks the counts. */
  public GcnImage {
    Objects.requireNonNull(hsaco, "hsaco");
    kernels = List.copyOf(Objects.requireNonNull(kernels, "kernels"));
    Objects.requireNonNull(layout, "layout");
    Objects.requireNonNull(hsacoName, "hsacoName");
    Objects.requireNonNull(hsaXnack, "hsaXnack");
    if (hsaXnack != HsaXnack.UNCHECKED && !layout.setupFunction()) {
      throw new IllegalArgumentException("HSA_XNACK is set by GCC 16's wrappers only");
    }
    if (globalVariableCount < 0) {
      throw new IllegalArgumentException("negative variable count " + globalVariableCount);
    }
    if (indirectFunctionCount < 0) {
      throw new IllegalArgumentException("negative indirect function count");
    }
  }

  /** A GCC 12 image. */
  public GcnImage(byte[] hsaco, List<GcnKernel> kernels, int globalVariableCount) {
    this(hsaco, kernels, globalVariableCount, GcnDataLayout.GCC12, 0, 0, 0, "", HsaXnack.UNCHECKED);
  }

  /**
   * Whether the wrapper runs code of its own before registering (a stack size, or 16's {@code
   * HSA_XNACK} check): GCC's C form is compiled for it rather than the wrapper written directly.
   */
  public boolean setsEnvironment() {
    return stackSize != 0 || hsaXnack != HsaXnack.UNCHECKED;
  }

  @Override
  public ImageCounts counts() {
    return ImageCounts.of(this);
  }
}
