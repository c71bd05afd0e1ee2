package org.offlink.streamer.inspect;

import java.util.OptionalInt;

/**
 * The shapes of the data a GCC mkoffload wrapper passes to {@code GOMP_offload_register_ver}, one
 * constant per registration library version (x86-64):
 *
 * <pre>
 * layout  GCC    symbol                    version nvptx/gcn  before the GCC 12 struct  indirect functions
 * GCC12   12     target_data               0x10001 / 0x10002  nothing                   none
 * GCC13   13     nvptx_data / gcn_data     0x20001 / 0x20003  uintptr_t requires mask   none
 * GCC14   14,15  nvptx_data / gcn_data     0x30001 / 0x30003  uintptr_t requires mask   nvptx: ind_fn_num at
 *                                                                                       +44; gcn: ind_func_count
 *                                                                                       at +24, variables at +28
 * </pre>
 *
 * GCC 13 and 14 structures have the same size, so the version argument of the registering call
 * tells them apart; when it cannot be read, {@code nvptx_data}/{@code gcn_data} is taken as GCC 13
 * (the older reading never invents indirect functions).
 */
public enum TargetDataLayout {
  GCC12(1, "GCC 12"),
  GCC13(2, "GCC 13"),
  GCC14(3, "GCC 14/15");

  private final int library;
  private final String description;

  TargetDataLayout(int library, String description) {
    this.library = library;
    this.description = description;
  }

  /**
   * The wrapper's data symbol for a target prefix ({@code nvptx} or {@code gcn}): GCC 12's shared
   * {@code target_data}, later {@code <prefix>_data}.
   */
  public String symbol(String targetPrefix) {
    return this == GCC12 ? "target_data" : targetPrefix + "_data";
  }

  /** {@code GOMP_VERSION_LIB} of the registration version this layout goes with. */
  public int library() {
    return library;
  }

  /** Whether the data starts with the pointer-sized OpenMP {@code requires} mask. */
  public boolean hasRequiresMask() {
    return library >= 2;
  }

  /** Whether the data counts indirect functions and the host table has six pointers. */
  public boolean hasIndirectFunctions() {
    return library >= 3;
  }

  /** Bytes before the GCC 12 structure. */
  public int headerSize() {
    return hasRequiresMask() ? 8 : 0;
  }

  /** How inspect names it: {@code GCC 12}, {@code GCC 13}, {@code GCC 14/15}. */
  public String description() {
    return description;
  }

  /**
   * The layout of an {@code nvptx_data}/{@code gcn_data} symbol given the registration version
   * found in code, if any.
   */
  static TargetDataLayout ofNamedData(OptionalInt version) {
    if (version.isPresent() && (version.getAsInt() >>> 16) >= 3) {
      return GCC14;
    }
    return GCC13;
  }
}
