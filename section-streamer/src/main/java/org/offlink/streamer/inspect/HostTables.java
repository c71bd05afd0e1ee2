package org.offlink.streamer.inspect;

import java.util.List;

/**
 * The host side of GCC's offload tables in a linked image: the entries of {@code
 * .gnu.offload_funcs} and {@code .gnu.offload_vars}, which libgomp pairs by index with the device
 * image's function and variable tables.
 */
public record HostTables(List<HostFunction> functions, List<HostVariable> variables) {
  /** Copies the lists. */
  public HostTables {
    functions = List.copyOf(functions);
    variables = List.copyOf(variables);
  }

  /** Whether the image has neither table. */
  public boolean isEmpty() {
    return functions.isEmpty() && variables.isEmpty();
  }
}
