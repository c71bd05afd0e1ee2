package org.offlink.streamer.inspect;

import java.util.List;
import java.util.Objects;

/**
 * One {@code struct nvptx_fn} of GCC 12's nvptx target data: the PTX function name ({@code $} for
 * {@code .}) and its three OpenACC launch dimensions (gang, worker, vector; 0 = unset).
 */
public record NvptxFunctionEntry(String name, List<Integer> dims) {
  /** Checks the fields. */
  public NvptxFunctionEntry {
    Objects.requireNonNull(name, "name");
    dims = List.copyOf(dims);
    if (dims.size() != 3) {
      throw new IllegalArgumentException("expected 3 dims, found " + dims.size());
    }
  }
}
