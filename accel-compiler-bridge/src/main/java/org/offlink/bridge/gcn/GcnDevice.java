package org.offlink.bridge.gcn;

import java.util.Objects;
import org.offlink.bridge.gcn.GcnTargetSettings.Setting;

/**
 * One {@code -march=} value a gcn mkoffload knows: its {@code EF_AMDGPU_MACH} number, the XNACK and
 * SRAM-ECC defaults mkoffload applies after reading the options (GCC 14+; 12/13 apply none), GCC
 * 15's generic code-object version (0 for a specific device; delta §6.1, gcn-devices.def) and the
 * generic target of the device's family (gcn-devices.def's "GENERIC NAME"; empty for none), which
 * 15+'s mkoffload names when the device has no libraries of its own.
 */
public record GcnDevice(
    String name,
    int elfMach,
    FeatureDefault xnack,
    FeatureDefault sramEcc,
    int genericVersion,
    String genericFamily) {
  /** What mkoffload does to a feature field once the options are read. */
  public enum FeatureDefault {
    /** Leaves the field as the options set it (GCC 12/13). */
    KEEP,
    /** Clears it whatever the options said (the device lacks the feature). */
    FORCE_UNSET,
    /** Sets "off" whatever the options said (GCC 14/15's XNACK {@code HSACO_ATTR_OFF}). */
    FORCE_OFF,
    /** Sets "off" only where the options left the field unset (GCC 16's XNACK). */
    OFF_IF_UNSET,
    /** Sets "any" whatever the options said (GCC 14's gfx906 SRAM-ECC). */
    FORCE_ANY,
    /** Sets "any" only where the options left the field unset. */
    ANY_IF_UNSET;

    Setting apply(Setting current) {
      switch (this) {
        case FORCE_UNSET:
          return Setting.UNSET;
        case FORCE_OFF:
          return Setting.OFF;
        case OFF_IF_UNSET:
          return current == Setting.UNSET ? Setting.OFF : current;
        case FORCE_ANY:
          return Setting.ANY;
        case ANY_IF_UNSET:
          return current == Setting.UNSET ? Setting.ANY : current;
        default:
          return current;
      }
    }
  }

  /** Checks the fields. */
  public GcnDevice {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(xnack, "xnack");
    Objects.requireNonNull(sramEcc, "sramEcc");
    Objects.requireNonNull(genericFamily, "genericFamily");
  }

  /** A device of no generic family. */
  public GcnDevice(
      String name, int elfMach, FeatureDefault xnack, FeatureDefault sramEcc, int genericVersion) {
    this(name, elfMach, xnack, sramEcc, genericVersion, "");
  }

  /** A GCC 12/13 device: no defaults applied. */
  static GcnDevice plain(String name, int elfMach) {
    return new GcnDevice(name, elfMach, FeatureDefault.KEEP, FeatureDefault.KEEP, 0);
  }

  /** Whether this is a generic target (code object v6, ELF ABI version 4). */
  public boolean generic() {
    return genericVersion != 0;
  }

  /** fiji (gfx803): code object v3, no feature bits in the debug objects. */
  boolean fiji() {
    return elfMach == 0x2a;
  }
}
