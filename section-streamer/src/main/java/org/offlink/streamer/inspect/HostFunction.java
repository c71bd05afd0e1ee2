package org.offlink.streamer.inspect;

import java.util.Objects;

/**
 * One entry of a linked {@code .gnu.offload_funcs} table: the outlined target function's address
 * and its symbol name (empty when no symbol is defined there).
 */
public record HostFunction(long address, String name) {
  /** Checks the name. */
  public HostFunction {
    Objects.requireNonNull(name, "name");
  }
}
