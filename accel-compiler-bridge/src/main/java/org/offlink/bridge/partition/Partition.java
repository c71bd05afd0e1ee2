package org.offlink.bridge.partition;

/**
 * A contiguous run of the image's offload inputs, compiled by one accel compiler run: inputs {@code
 * first} (inclusive) to {@code end} (exclusive), in link order. Contiguity is what keeps the device
 * tables in the host's order: libgomp pairs host table entry i with device entry i, the host table
 * is the inputs' {@code .gnu.offload_funcs}/{@code .gnu.offload_vars} in link order, and each accel
 * compile lists its inputs' entries in input order.
 *
 * @param first the index of the first input
 * @param end one past the index of the last input
 */
public record Partition(int first, int end) {
  /** Checks the range. */
  public Partition {
    if (first < 0 || end <= first) {
      throw new IllegalArgumentException("bad partition [" + first + ", " + end + ")");
    }
  }

  /** How many inputs the partition holds. */
  public int size() {
    return end - first;
  }

  @Override
  public String toString() {
    return "[" + first + ", " + end + ")";
  }
}
