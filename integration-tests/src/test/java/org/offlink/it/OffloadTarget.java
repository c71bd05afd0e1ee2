package org.offlink.it;

import java.util.Arrays;
import java.util.Optional;

/**
 * An offload target of GCC 12 with the libgomp device type and registration version its wrapper
 * object passes to {@code GOMP_offload_register_ver} (reference §5.2, §5.4).
 */
enum OffloadTarget {
  NVPTX("nvptx-none", 5, 0x10001),
  GCN("amdgcn-amdhsa", 8, 0x10002);

  private final String triple;
  private final int deviceType;
  private final int registerVersion;

  OffloadTarget(String triple, int deviceType, int registerVersion) {
    this.triple = triple;
    this.deviceType = deviceType;
    this.registerVersion = registerVersion;
  }

  /** The GCC target name, e.g. {@code nvptx-none}; also the {@code accel/<triple>/} directory. */
  String triple() {
    return triple;
  }

  /** GOMP_DEVICE_* value. */
  int deviceType() {
    return deviceType;
  }

  /** GOMP_VERSION_PACK(1, device version) as written by GCC 12's mkoffload. */
  int registerVersion() {
    return registerVersion;
  }

  /** The target registering with device type {@code type}, if known. */
  static Optional<OffloadTarget> ofDeviceType(int type) {
    return Arrays.stream(values()).filter(t -> t.deviceType == type).findFirst();
  }
}
