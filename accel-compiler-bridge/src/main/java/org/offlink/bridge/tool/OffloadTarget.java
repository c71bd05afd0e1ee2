package org.offlink.bridge.tool;

import java.util.Optional;
import org.offlink.runtime.EnumLookup;

/**
 * The offload targets GCC 12 supports, with the Debian package that provides each accel compiler.
 */
public enum OffloadTarget {
  /** NVIDIA PTX. */
  NVPTX("nvptx-none"),
  /** AMD GCN (HSA). */
  AMDGCN("amdgcn-amdhsa");

  private final String triplet;

  OffloadTarget(String triplet) {
    this.triplet = triplet;
  }

  /** The target name as in {@code OFFLOAD_TARGET_NAMES}, e.g. {@code nvptx-none}. */
  public String triplet() {
    return triplet;
  }

  /**
   * The Debian package with this target's accel compiler for GCC {@code major}, named after the
   * triplet's CPU: {@code gcc-12-offload-nvptx}, {@code gcc-12-offload-amdgcn}.
   */
  public String debianPackage(int major) {
    // Plain concatenation: String.format would load locale data (~9 ms) on every link's path.
    return "gcc-" + major + "-offload-" + triplet.substring(0, triplet.indexOf('-'));
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
