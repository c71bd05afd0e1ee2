package org.offlink.streamer.inspect;

import java.util.Objects;

/**
 * One entry of a linked {@code .gnu.offload_vars} table: address, symbol name (empty when none),
 * size, and the {@code declare target link} bit that GCC keeps in the size's most significant bit.
 */
public record HostVariable(long address, String name, long size, boolean link) {
  /** Checks the fields. */
  public HostVariable {
    Objects.requireNonNull(name, "name");
    if (size < 0) {
      throw new IllegalArgumentException("negative variable size " + size);
    }
  }
}
