package org.offlink.streamer.lto;

/**
 * The {@code <prefix>.lto.<id>} section ({@code struct lto_section} in lto-streamer.h): 8 bytes,
 * little-endian, never compressed.
 *
 * <pre>
 * offset size field
 *      0    2 major_version  int16, GCC major (12)
 *      2    2 minor_version  int16 (12.2: 0)
 *      4    1 slim_object    1 when the object has no regular code
 *      5    1 padding
 *      6    2 flags          uint16, the compression: 0 zlib, 1 zstd
 * </pre>
 *
 * @param major LTO major version
 * @param minor LTO minor version
 * @param slim whether the object is slim (IR only)
 * @param compression the compression of the other sections
 * @param flags the raw flags field (keeps UNKNOWN values)
 */
public record LtoHeader(int major, int minor, boolean slim, LtoCompression compression, int flags) {
  /** Size of the section in bytes. */
  public static final int SIZE = 8;

  /** Validates field ranges and that compression matches flags. */
  public LtoHeader {
    if (major < Short.MIN_VALUE
        || major > Short.MAX_VALUE
        || minor < Short.MIN_VALUE
        || minor > Short.MAX_VALUE) {
      throw new IllegalArgumentException("version out of int16 range: " + major + "." + minor);
    }
    if (flags < 0 || flags > 0xffff || compression != LtoCompression.ofFlags(flags)) {
      throw new IllegalArgumentException("flags " + flags + " do not encode " + compression);
    }
  }

  /** A header with a known compression. */
  public LtoHeader(int major, int minor, boolean slim, LtoCompression compression) {
    this(major, minor, slim, compression, compression.code());
  }
}
