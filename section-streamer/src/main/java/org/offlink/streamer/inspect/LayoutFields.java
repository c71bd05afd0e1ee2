package org.offlink.streamer.inspect;

import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What GCC 13 and later add to the registered data, decoded.
 *
 * @param layout the layout the data was read with
 * @param requiresMask the OpenMP {@code requires} mask (GCC 13+), empty for GCC 12
 * @param indirectFunctions the indirect-function count (GCC 14+), empty before
 */
public record LayoutFields(
    TargetDataLayout layout, OptionalLong requiresMask, OptionalInt indirectFunctions) {
  /** GCC 12: no mask, no indirect functions. */
  public static final LayoutFields GCC12 =
      new LayoutFields(TargetDataLayout.GCC12, OptionalLong.empty(), OptionalInt.empty());

  /** Checks the fields against the layout. */
  public LayoutFields {
    Objects.requireNonNull(layout, "layout");
    if (requiresMask.isPresent() != layout.hasRequiresMask()
        || indirectFunctions.isPresent() != layout.hasIndirectFunctions()) {
      throw new IllegalArgumentException("fields do not match layout " + layout);
    }
  }
}
