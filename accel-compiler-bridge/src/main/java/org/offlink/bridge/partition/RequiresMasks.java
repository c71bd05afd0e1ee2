package org.offlink.bridge.partition;

import java.util.List;

/**
 * Combines the partitions' OpenMP {@code requires} masks (GCC 13+) into the one the whole-program
 * {@code lto1} would have written.
 *
 * <p>The whole-program {@code lto1} takes the first non-zero mask of its inputs and reports an
 * error when a later one differs ({@code input_offload_tables}, gcc/lto-cgraph.cc@13:1815-1957).
 * Each input streams its mask only when it used a target construct ({@code
 * output_offload_tables}, @13:1081, the mask {@code OMP_REQUIRES_TARGET_USED}, 0x200, plus the
 * {@code requires} clauses), so a partition of units with only {@code declare target} functions
 * writes 0 where the whole program has 0x200. The mask reaches the device code only through the
 * {@code requires} clause bits (declare variant selectors, omp-general.cc; GCC 16's gcn XNACK
 * warning, gcn.cc@16:2983), never through 0x200 itself. So the partitions stand for the whole
 * program when their non-zero masks agree and either every partition has the mask or it says no
 * more than 0x200; otherwise the whole program is compiled (which also gives GCC's own error for
 * masks that disagree).
 */
final class RequiresMasks {
  /** {@code GOMP_REQUIRES_TARGET_USED} (include/gomp-constants.h@13). */
  static final int TARGET_USED = 0x200;

  private RequiresMasks() {}

  /** The whole program's mask from the partitions' masks, in plan order. */
  static int combine(List<Integer> masks) throws WholeProgramNeeded {
    int mask = 0;
    boolean zero = false;
    for (int m : masks) {
      if (m == 0) {
        zero = true;
      } else if (mask == 0) {
        mask = m;
      } else if (m != mask) {
        throw new WholeProgramNeeded(
            String.format("OpenMP requires masks differ between partitions (%#x, %#x)", mask, m));
      }
    }
    if (zero && mask != 0 && mask != TARGET_USED) {
      throw new WholeProgramNeeded(
          String.format(
              "OpenMP requires mask %#x is not seen by every partition's accel compiler", mask));
    }
    return mask;
  }
}
