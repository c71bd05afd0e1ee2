package org.offlink.streamer.lto;

/** The compression named by the {@code flags} field of the LTO header ({@code lto_compression}). */
public enum LtoCompression {
  ZLIB(0),
  ZSTD(1),
  /** A value GCC 12 does not write; the raw flags stay in {@link LtoHeader#flags()}. */
  UNKNOWN(-1);

  private final int code;

  LtoCompression(int code) {
    this.code = code;
  }

  /** The value in the header's flags field (-1 for UNKNOWN). */
  public int code() {
    return code;
  }

  /** The compression for a raw flags value. */
  public static LtoCompression ofFlags(int flags) {
    return flags == 0 ? ZLIB : flags == 1 ? ZSTD : UNKNOWN;
  }
}
