package org.offlink.streamer.write;

/** Range checks shared by the on-disk records (one place for the unsigned field widths). */
final class FieldRanges {
  private FieldRanges() {}

  static void checkU16(String field, int value) {
    if (value < 0 || value > 0xffff) {
      throw new IllegalArgumentException(field + " does not fit 16 bits: " + value);
    }
  }

  static void checkU32(String field, long value) {
    if (value < 0 || value > 0xffff_ffffL) {
      throw new IllegalArgumentException(field + " does not fit 32 bits: " + value);
    }
  }

  static void checkU64(String field, long value) {
    // Java longs are signed; offsets and sizes beyond 2^63 cannot occur in an object we build.
    if (value < 0) {
      throw new IllegalArgumentException(field + " is negative: " + value);
    }
  }

  static void checkPowerOfTwoOrZero(String field, long value) {
    if (value < 0 || (value & (value - 1)) != 0) {
      throw new IllegalArgumentException(field + " is not 0 or a power of two: " + value);
    }
  }
}
