package org.offlink.bridge.gcn;

import java.util.List;
import java.util.Objects;
import org.offlink.bridge.gcc.UnsupportedGccException;

/**
 * GCC 12 gcn mkoffload's ELF flag model (reference §4.1): architecture (default fiji), XNACK
 * (default "any", {@code -mxnack}/{@code -mno-xnack}) and SRAM-ECC ({@code -msram-ecc=on|any|off},
 * default "any"), scanned from the mkoffload arguments; the last option wins. Unknown {@code
 * -march=} values are refused here (GCC 12 leaves them to the accel driver's error).
 */
public record GcnTargetSettings(GcnArch arch, Setting xnack, Setting sramEcc) {
  /** A tri-state feature setting with its {@code e_flags} field value. */
  public enum Setting {
    /** Feature may be either. */
    ANY,
    /** Feature off. */
    OFF,
    /** Feature on. */
    ON;

    /** The two-bit HSA v4 {@code e_flags} field: any 1, off 2, on 3. */
    int elfField() {
      switch (this) {
        case ANY:
          return 1;
        case OFF:
          return 2;
        default:
          return 3;
      }
    }
  }

  /** Checks the fields. */
  public GcnTargetSettings {
    Objects.requireNonNull(arch, "arch");
    Objects.requireNonNull(xnack, "xnack");
    Objects.requireNonNull(sramEcc, "sramEcc");
  }

  /** Scans the (forwarded) mkoffload arguments. */
  public static GcnTargetSettings fromArguments(List<String> args) throws UnsupportedGccException {
    GcnArch arch = GcnArch.FIJI;
    Setting xnack = Setting.ANY;
    Setting sram = Setting.ANY;
    for (String a : args) {
      if (a.equals("-mxnack")) {
        xnack = Setting.ON;
      } else if (a.equals("-mno-xnack")) {
        xnack = Setting.OFF;
      } else if (a.startsWith("-msram-ecc=")) {
        sram = sramEcc(a, sram);
      } else if (a.startsWith("-march=")) {
        String value = a.substring("-march=".length());
        arch =
            GcnArch.byOption(value)
                .orElseThrow(
                    () ->
                        new UnsupportedGccException(
                            "unknown amdgcn architecture '-march="
                                + value
                                + "'; GCC 12 supports fiji, gfx900, gfx906 and gfx908"));
      }
    }
    return new GcnTargetSettings(arch, xnack, sram);
  }

  private static Setting sramEcc(String option, Setting current) {
    switch (option) {
      case "-msram-ecc=on":
        return Setting.ON;
      case "-msram-ecc=any":
        return Setting.ANY;
      case "-msram-ecc=off":
        return Setting.OFF;
      default:
        return current;
    }
  }

  /** The link-step XNACK option: only ON gives {@code -mxnack} (GCC 12 tests the ON bits). */
  public String xnackOption() {
    return xnack == Setting.ON ? "-mxnack" : "-mno-xnack";
  }

  /**
   * The {@code e_flags} GCC 12 gives early debug objects (§4.6): the mach number with the XNACK
   * field (any 0x100, off 0x200, on 0x300) and the SRAM-ECC field (any 0x400, off 0x800, on 0xc00);
   * fiji gets no feature bits (HSA v3), gfx900 no SRAM-ECC field (it has no such feature). Unlike
   * the HSACO's flags, XNACK "any" stays "any" here.
   */
  public int debugObjectElfFlags() {
    if (arch == GcnArch.FIJI) {
      return arch.elfMach();
    }
    int flags = arch.elfMach() | (xnack.elfField() << 8);
    if (arch != GcnArch.GFX900) {
      flags |= sramEcc.elfField() << 10;
    }
    return flags;
  }

  /** {@code e_ident[EI_ABIVERSION]} of early debug objects: 1 (HSA v3) for fiji, else 2 (v4). */
  public int debugObjectAbiVersion() {
    return arch == GcnArch.FIJI ? 1 : 2;
  }

  /** The link-step SRAM-ECC option. */
  public String sramEccOption() {
    return "-msram-ecc=" + sramEcc.name().toLowerCase(java.util.Locale.ROOT);
  }
}
