package org.offlink.bridge.tool;

import java.util.Optional;
import org.offlink.runtime.EnumLookup;

/**
 * The offload targets GCC 12 supports, with the Debian package that provides each accel compiler.
 */
public enum OffloadTarget {
  /** NVIDIA PTX. */
  NVPTX("nvptx-none", "nvptx"),
  /** AMD GCN (HSA). */
  AMDGCN("amdgcn-amdhsa", "amdgcn");

  private final String triplet;
  private final String packageSuffix;

  OffloadTarget(String triplet, String packageSuffix) {
    this.triplet = triplet;
    this.packageSuffix = packageSuffix;
  }

  /** The target name as in {@code OFFLOAD_TARGET_NAMES}, e.g. {@code nvptx-none}. */
  public String triplet() {
    return triplet;
  }

  /** The Debian package with this target's accel compiler for GCC {@code major}. */
  public String debianPackage(int major) {
    // Plain concatenation: String.format would load locale data (~9 ms) on every link's path.
    return "gcc-" + major + "-offload-" + packageSuffix;
  }

  /**
   * The accel driver name compiled into mkoffload as {@code GCC_INSTALL_NAME}: {@code
   * <host>-accel-<target>-gcc-<major>} on Debian.
   */
  public String accelDriverName(String hostTriplet, int major) {
    return hostTriplet + "-accel-" + triplet + "-gcc-" + major;
  }

  /** Looks a target up by its triplet. */
  public static Optional<OffloadTarget> byTriplet(String name) {
    return EnumLookup.byKey(values(), OffloadTarget::triplet, name);
  }
}
