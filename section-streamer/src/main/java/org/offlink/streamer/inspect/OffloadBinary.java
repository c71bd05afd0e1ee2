package org.offlink.streamer.inspect;

import java.util.List;

/**
 * One LLVM OffloadBinary ("0x10FF10AD" container) found in a {@code .llvm.offloading} section.
 *
 * <pre>
 * offset size field (little endian; header 32 bytes for v1/v2, 40 for v3)
 *  0     4    magic 10 ff 10 ad
 *  4     4    version (1, 2, 3)
 *  8     8    size of this binary
 * 16     8    entries offset
 * 24     8    v1: size of the single entry; v2+: number of entries
 * 32     8    v3: inflated size (non-zero: everything after the header is compressed)
 * string map entry: v1 {u64 key offset, u64 value offset}; v2+ adds {u64 value size}
 * </pre>
 *
 * @param offset where the binary starts, from the start of its section
 * @param version the container version
 * @param size the binary's size
 * @param compressed whether the entries are compressed (v3 with an inflated size); no entries then
 * @param entries the decoded entries
 */
public record OffloadBinary(
    long offset, int version, long size, boolean compressed, List<OffloadBinaryEntry> entries) {
  /** The magic number, as a little-endian u32. */
  public static final int MAGIC = 0xAD10FF10;

  /** Copies the list. */
  public OffloadBinary {
    entries = List.copyOf(entries);
  }
}
