package org.offlink.streamer.ar;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * One member of an archive, without its data.
 *
 * <p>{@code dataOffset} is the byte offset of the member's first data byte in the archive file:
 * after the 60-byte member header and, for BSD {@code #1/N} names, after the N inline name bytes.
 * This is the offset GCC's linker plugin writes as {@code archive.a@0x<offset>}. For a thin archive
 * the data live in {@code externalFile} and {@code dataOffset} is 0 (an offset into that file).
 * {@code headerOffset} is where the member's header starts in the archive; symbol tables refer to
 * members by it.
 *
 * @param name member name with GNU/BSD decorations removed
 * @param dataOffset offset of the data in the archive file (or in {@code externalFile})
 * @param size data size in bytes (without a BSD inline name)
 * @param externalFile for thin archives, the data file resolved against the archive's directory
 * @param headerOffset offset of the member header in the archive file
 */
public record ArchiveMember(
    String name, long dataOffset, long size, Optional<Path> externalFile, long headerOffset) {

  /** Validates offsets and sizes. */
  public ArchiveMember {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(externalFile, "externalFile");
    if (dataOffset < 0 || size < 0 || headerOffset < 0) {
      throw new IllegalArgumentException(
          "negative offset or size in member " + name + ": " + dataOffset + ", " + size);
    }
  }

  /** Whether the member's data are in an external file (thin archive). */
  public boolean isExternal() {
    return externalFile.isPresent();
  }
}
