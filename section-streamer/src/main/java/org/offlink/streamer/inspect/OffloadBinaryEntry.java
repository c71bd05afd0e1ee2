package org.offlink.streamer.inspect;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One entry of an LLVM OffloadBinary.
 *
 * <pre>
 * offset size field (40 bytes)
 *  0     2    image kind     (see {@link ImageKind})
 *  2     2    offload kind   (1 openmp, 2 cuda, 3/4 hip: sequential before LLVM 21, a bit mask after)
 *  4     4    flags          (bit 0 = metadata only, no image)
 *  8     8    string map offset
 * 16     8    number of strings
 * 24     8    image offset
 * 32     8    image size
 * </pre>
 *
 * @param imageKind the image kind; {@link ImageKind#UNKNOWN} keeps {@code rawImageKind}
 * @param rawImageKind the stored image kind
 * @param offloadKind the stored offload kind
 * @param flags the stored flags
 * @param strings the string map (key order sorted for deterministic output)
 * @param imageOffset image offset from the start of the binary
 * @param imageSize image size
 */
public record OffloadBinaryEntry(
    ImageKind imageKind,
    int rawImageKind,
    int offloadKind,
    long flags,
    Map<String, String> strings,
    long imageOffset,
    long imageSize) {
  /** Copies the map. */
  public OffloadBinaryEntry {
    Objects.requireNonNull(imageKind, "imageKind");
    strings = java.util.Collections.unmodifiableMap(new TreeMap<>(strings));
    if (imageOffset < 0 || imageSize < 0) {
      throw new IllegalArgumentException("negative image offset or size");
    }
  }

  /** The {@code triple} string, or "". */
  public String triple() {
    return strings.getOrDefault("triple", "");
  }

  /** The {@code arch} string, or "". */
  public String arch() {
    return strings.getOrDefault("arch", "");
  }

  /** The offload kind's name: openmp, cuda, hip, sycl, or the number. */
  public String offloadKindName() {
    return switch (offloadKind) {
      case 1 -> "openmp";
      case 2 -> "cuda";
      case 3, 4 -> "hip";
      case 8 -> "sycl";
      default -> Integer.toString(offloadKind);
    };
  }
}
