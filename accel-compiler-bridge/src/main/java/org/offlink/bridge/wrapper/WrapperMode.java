package org.offlink.bridge.wrapper;

/**
 * How mkoffload turns a device image into the host object: {@link #ELF} writes the wrapper object
 * directly (x86-64 only, no host compiler run); {@link #C} writes GCC 12's generated C and compiles
 * it with the host compiler, exactly as stock mkoffload does (any host; also the cross-check).
 */
public enum WrapperMode {
  ELF,
  C;

  /** Parses {@code elf} or {@code c}, case-insensitively. */
  public static WrapperMode parse(String value) {
    for (WrapperMode mode : values()) {
      if (mode.name().equalsIgnoreCase(value)) {
        return mode;
      }
    }
    throw new IllegalArgumentException(
        "unknown wrapper mode '" + value + "' (expected 'elf' or 'c')");
  }
}
