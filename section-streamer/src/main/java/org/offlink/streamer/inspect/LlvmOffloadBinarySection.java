package org.offlink.streamer.inspect;

import java.util.List;
import java.util.Objects;

/**
 * A {@code .llvm.offloading} section with the OffloadBinaries it holds and its raw bytes (for
 * extracting images).
 */
public record LlvmOffloadBinarySection(String name, List<OffloadBinary> binaries, byte[] data) {
  /** Copies the fields. */
  public LlvmOffloadBinarySection {
    Objects.requireNonNull(name, "name");
    binaries = List.copyOf(binaries);
    data = data.clone();
  }

  @Override
  public byte[] data() {
    return data.clone();
  }

  /** The image bytes of one entry of one of this section's binaries. */
  public byte[] image(OffloadBinary binary, OffloadBinaryEntry entry) {
    return OffloadBinaryReader.image(data, binary, entry);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LlvmOffloadBinarySection s
        && s.name.equals(name)
        && s.binaries.equals(binaries)
        && java.util.Arrays.equals(s.data, data);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, binaries) * 31 + java.util.Arrays.hashCode(data);
  }

  @Override
  public String toString() {
    return "LlvmOffloadBinarySection[" + name + ", " + binaries.size() + " binaries]";
  }
}
