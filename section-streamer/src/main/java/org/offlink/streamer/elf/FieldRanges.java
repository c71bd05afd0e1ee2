package org.offlink.streamer.elf;

/**
 * Range checks shared by the on-disk records of the reader and the writers (one place for the
 * unsigned field widths).
 */
public final class FieldRanges {
  private FieldRanges() {}

  /** Fails unless {@code value} fits an unsigned 16-bit field. */
  public static void checkU16(String field, int value) {
    if (value < 0 || value > 0xffff) {
      throw new IllegalArgumentException(field + " does not fit 16 bits: " + value);
    }
  }

  /** Fails unless {@code value} fits an unsigned 32-bit field. */
  public static void checkU32(String field, long value) {
    if (value < 0 || value > 0xffff_ffffL) {
      throw new IllegalArgumentException(field + " does not fit 32 bits: " + value);
    }
  }

  /** Fails when {@code value} is negative (beyond 2^63 as an unsigned 64-bit field). */
  public static void checkU64(String field, long value) {
    // Java longs are signed; offsets and sizes beyond 2^63 cannot occur in an object we build.
    if (value < 0) {
      throw new IllegalArgumentException(field + " is negative: " + value);
    }
  }

  /** Fails unless {@code value} is 0 or a power of two (an alignment). */
  public static void checkPowerOfTwoOrZero(String field, long value) {
    if (value < 0 || (value & (value - 1)) != 0) {
      throw new IllegalArgumentException(field + " is not 0 or a power of two: " + value);
    }
  }
}
