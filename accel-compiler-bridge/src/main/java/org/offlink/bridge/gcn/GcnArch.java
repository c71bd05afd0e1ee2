package org.offlink.bridge.gcn;

import java.util.Optional;

/**
 * The {@code -march=} values GCC 12's gcn mkoffload knows, with their ELF {@code EF_AMDGPU_MACH_*}
 * numbers (low byte of {@code e_flags}).
 */
public enum GcnArch {
  /** gfx803, the GCC 12 default. */
  FIJI("fiji", 0x2a),
  /** Vega 10. */
  GFX900("gfx900", 0x2c),
  /** Vega 20. */
  GFX906("gfx906", 0x2f),
  /** CDNA1 (MI100). */
  GFX908("gfx908", 0x30);

  private final String option;
  private final int elfMach;

  GcnArch(String option, int elfMach) {
    this.option = option;
    this.elfMach = elfMach;
  }

  /** The {@code -march=} spelling. */
  public String option() {
    return option;
  }

  /** The {@code EF_AMDGPU_MACH} value. */
  public int elfMach() {
    return elfMach;
  }

  /** Looks up a {@code -march=} value. */
  public static Optional<GcnArch> byOption(String value) {
    for (GcnArch a : values()) {
      if (a.option.equals(value)) {
        return Optional.of(a);
      }
    }
    return Optional.empty();
  }

  /** The mach number for an {@code e_flags} value, if it is one of these. */
  public static Optional<GcnArch> byElfMach(int mach) {
    for (GcnArch a : values()) {
      if (a.elfMach == mach) {
        return Optional.of(a);
      }
    }
    return Optional.empty();
  }
}
