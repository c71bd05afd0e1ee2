package org.offlink.bridge.gcn;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.offlink.bridge.gcc.UnsupportedGccException;
import org.offlink.bridge.image.HsaXnack;

/**
 * A gcn mkoffload's ELF flag model (reference §4.1, delta §6.1): device (the release's default
 * unless {@code -march=} names one; the last option wins), XNACK and SRAM-ECC fields, scanned from
 * the mkoffload arguments starting from the release's initial fields, then the device's defaults
 * applied (GCC 14+). Unknown {@code -march=} values are refused here, and (15+) a device without
 * libraries whose generic target has them.
 */
public record GcnTargetSettings(
    GcnRelease release, GcnDevice arch, Setting xnack, Setting sramEcc) {
  /** A tri-state feature setting (or unset) with its {@code e_flags} field value. */
  public enum Setting {
    /** Field unset: the device lacks the feature or nothing chose (GCC 14+). */
    UNSET,
    /** Feature may be either. */
    ANY,
    /** Feature off. */
    OFF,
    /** Feature on. */
    ON;

    /** The two-bit HSA v4 {@code e_flags} field: unset 0, any 1, off 2, on 3. */
    int elfField() {
      return ordinal();
    }

    String spelling() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Checks the fields. */
  public GcnTargetSettings {
    Objects.requireNonNull(release, "release");
    Objects.requireNonNull(arch, "arch");
    Objects.requireNonNull(xnack, "xnack");
    Objects.requireNonNull(sramEcc, "sramEcc");
  }

  /** Scans the (forwarded) mkoffload arguments as GCC 12's gcn mkoffload does. */
  public static GcnTargetSettings fromArguments(List<String> args) throws UnsupportedGccException {
    return fromArguments(GcnRelease.GCC12, args);
  }

  /** Scans the (forwarded) mkoffload arguments as {@code release}'s gcn mkoffload does. */
  public static GcnTargetSettings fromArguments(GcnRelease release, List<String> args)
      throws UnsupportedGccException {
    GcnDevice arch = release.device(release.defaultDevice()).orElseThrow();
    Setting xnack = release.initialXnack();
    Setting sram = release.initialSramEcc();
    for (String a : args) {
      if (a.startsWith("-msram-ecc=")) {
        sram = valued(a.substring("-msram-ecc=".length()), sram);
      } else if (a.startsWith("-march=")) {
        String value = a.substring("-march=".length());
        arch = release.device(value).orElseThrow(() -> unknownArch(release, value));
      } else if (release.valuedFeatureOptions()) {
        if (a.startsWith("-mxnack=")) {
          xnack = valued(a.substring("-mxnack=".length()), xnack);
        }
      } else if (a.equals("-mxnack")) {
        xnack = Setting.ON;
      } else if (a.equals("-mno-xnack")) {
        xnack = Setting.OFF;
      }
    }
    requireLibraries(release, arch);
    return new GcnTargetSettings(
        release, arch, arch.xnack().apply(xnack), arch.sramEcc().apply(sram));
  }

  /** 15+'s {@code check_for_missing_lib}, right after the options are read (GCC's text). */
  private static void requireLibraries(GcnRelease release, GcnDevice arch)
      throws UnsupportedGccException {
    java.util.Optional<String> generic = release.missingLibraryAlternative(arch);
    if (generic.isPresent()) {
      throw new UnsupportedGccException(
          "GCC was built without library support for '-march="
              + arch.name()
              + "'; consider compiling for the associated generic architecture '-march="
              + generic.get()
              + "' instead");
    }
  }

  private static UnsupportedGccException unknownArch(GcnRelease release, String value) {
    if (release.valuedFeatureOptions()) {
      return new UnsupportedGccException(
          "unrecognized argument in option '-march="
              + value
              + "'; valid arguments to '-march=' are: "
              + release.validMarch());
    }
    return new UnsupportedGccException(
        "unknown amdgcn architecture '-march="
            + value
            + "'; GCC "
            + release.major()
            + " supports "
            + release.validMarch());
  }

  private static Setting valued(String value, Setting current) {
    switch (value) {
      case "on":
        return Setting.ON;
      case "any":
        return Setting.ANY;
      case "off":
        return Setting.OFF;
      default:
        return current;
    }
  }

  /**
   * The link-step feature options: GCC 12/13 always give both ({@code -mxnack} only for ON, else
   * {@code -mno-xnack}); 14+ give {@code -mxnack=X} and {@code -msram-ecc=X} for fields that are
   * set.
   */
  public List<String> linkOptions() {
    if (!release.valuedFeatureOptions()) {
      return List.of(
          xnack == Setting.ON ? "-mxnack" : "-mno-xnack", "-msram-ecc=" + sramEcc.spelling());
    }
    List<String> out = new java.util.ArrayList<>(2);
    if (xnack != Setting.UNSET) {
      out.add("-mxnack=" + xnack.spelling());
    }
    if (sramEcc != Setting.UNSET) {
      out.add("-msram-ecc=" + sramEcc.spelling());
    }
    return out;
  }

  /**
   * What GCC 16's {@code mkoffload_setup} does with {@code HSA_XNACK} ({@code process_asm}): the
   * variable is checked when the XNACK field is "on" or "off", or when the program requires unified
   * shared memory or self maps ({@code omp_requires} 0x20 or 0x400, which need XNACK), and set to 1
   * when XNACK is on or required, else 0. "off" wins over the requirement (mkoffload warns, see
   * {@link #xnackConflicts}).
   */
  public HsaXnack hsaXnack(long requiresMask) {
    boolean required = xnackRequired(requiresMask) && xnack != Setting.OFF;
    if (xnack != Setting.OFF && xnack != Setting.ON && !required) {
      return HsaXnack.UNCHECKED;
    }
    return required || xnack == Setting.ON ? HsaXnack.ON : HsaXnack.OFF;
  }

  /**
   * GCC 16 warns {@code conflicting settings; XNACK is forced off but Unified Shared Memory is
   * required} when the XNACK field is "off" (gfx908's default) and the program requires unified
   * shared memory or self maps.
   */
  public boolean xnackConflicts(long requiresMask) {
    return xnack == Setting.OFF && xnackRequired(requiresMask);
  }

  /** {@code OMP_REQUIRES_UNIFIED_SHARED_MEMORY | OMP_REQUIRES_SELF_MAPS}. */
  private static boolean xnackRequired(long requiresMask) {
    return (requiresMask & (0x20 | 0x400)) != 0;
  }

  /**
   * The {@code e_flags} gcn mkoffload gives early debug objects (reference §4.6, delta §6.2): the
   * mach number with the XNACK field (any 0x100, off 0x200, on 0x300), the SRAM-ECC field (any
   * 0x400, off 0x800, on 0xc00) and 15's generic version in bits 24-31; fiji gets no feature bits
   * (HSA v3), gfx900 no SRAM-ECC field (GCC 12/13 special-case it; 14+ force it unset).
   */
  public int debugObjectElfFlags() {
    if (arch.fiji()) {
      return arch.elfMach();
    }
    int flags = arch.elfMach() | (xnack.elfField() << 8) | (arch.genericVersion() << 24);
    if (arch.elfMach() != 0x2c) {
      flags |= sramEcc.elfField() << 10;
    }
    return flags;
  }

  /**
   * {@code e_ident[EI_ABIVERSION]} of early debug objects: 1 (HSA v3) for fiji, 4 (v6) for 15's
   * generic targets, else 2 (v4).
   */
  public int debugObjectAbiVersion() {
    return arch.fiji() ? 1 : arch.generic() ? 4 : 2;
  }
}
