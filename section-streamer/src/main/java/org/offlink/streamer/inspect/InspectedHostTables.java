package org.offlink.streamer.inspect;

import java.util.List;

/**
 * The host side of GCC's offload tables in a linked image: the entries of {@code
 * .gnu.offload_funcs} and {@code .gnu.offload_vars}, which libgomp pairs by index with the device
 * image's function and variable tables.
 */
public record InspectedHostTables(
    List<HostFunction> functions,
    List<HostVariable> variables,
    List<HostFunction> indirectFunctions) {
  /** Copies the lists. */
  public InspectedHostTables {
    functions = List.copyOf(functions);
    variables = List.copyOf(variables);
    indirectFunctions = List.copyOf(indirectFunctions);
  }

  /** Tables without indirect functions (GCC 12, 13). */
  public InspectedHostTables(List<HostFunction> functions, List<HostVariable> variables) {
    this(functions, variables, List.of());
  }

  /** Whether the image has neither table. */
  public boolean isEmpty() {
    return functions.isEmpty() && variables.isEmpty() && indirectFunctions.isEmpty();
  }
}
