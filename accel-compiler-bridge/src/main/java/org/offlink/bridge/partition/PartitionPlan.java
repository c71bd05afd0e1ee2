package org.offlink.bridge.partition;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How an image's offload inputs are split into {@link Partition}s, in link order.
 *
 * <p>The first plan depends on the number of inputs only ({@link #initial}), never on their
 * contents or on the number of parallel jobs, so that the image is the same bytes whatever {@code
 * --device-jobs=N} says, and a change to one unit's device code leaves every other partition (and
 * its cache entry) as it was. {@link #merge} joins partitions whose symbols clash ({@link
 * SymbolClashes}); the result is again contiguous, so the table order is kept.
 *
 * @param inputs how many inputs the image has
 * @param partitions the partitions, covering {@code [0, inputs)} in order without gaps
 */
public record PartitionPlan(int inputs, List<Partition> partitions) {
  /**
   * The most partitions a first plan has. Each partition costs one accel compiler start-up (about
   * 0.15 s of CPU for the driver, {@code lto1} and the assembler on this project's 2-core machine)
   * and loses inlining across its edges; more partitions make a relink after a one-unit change
   * cheaper. 32 keeps the start-up cost of a 1,000-unit image near a tenth of its compile (about 5
   * s of CPU of some 45) and gives a program of up to 32 units one partition per unit, so that a
   * change to one unit recompiles that unit alone.
   */
  public static final int MAX_PARTITIONS = 32;

  /** Checks that the partitions tile {@code [0, inputs)}. */
  public PartitionPlan {
    partitions = List.copyOf(Objects.requireNonNull(partitions, "partitions"));
    int next = 0;
    for (Partition p : partitions) {
      if (p.first() != next) {
        throw new IllegalArgumentException("partitions leave a gap or overlap at " + next);
      }
      next = p.end();
    }
    if (next != inputs) {
      throw new IllegalArgumentException("partitions cover " + next + " of " + inputs + " inputs");
    }
  }

  /**
   * The first plan for {@code inputs} inputs: at most {@link #MAX_PARTITIONS} partitions of {@code
   * ceil(inputs / MAX_PARTITIONS)} inputs each (the last may be smaller).
   */
  public static PartitionPlan initial(int inputs) {
    if (inputs < 1) {
      throw new IllegalArgumentException("no inputs to partition");
    }
    int size = (inputs + MAX_PARTITIONS - 1) / MAX_PARTITIONS;
    List<Partition> parts = new ArrayList<>();
    for (int first = 0; first < inputs; first += size) {
      parts.add(new Partition(first, Math.min(inputs, first + size)));
    }
    return new PartitionPlan(inputs, parts);
  }

  /** The plan with one partition holding everything: the whole-program compile. */
  public static PartitionPlan whole(int inputs) {
    return new PartitionPlan(inputs, List.of(new Partition(0, inputs)));
  }

  /** Whether the plan is a single partition. */
  public boolean isWhole() {
    return partitions.size() == 1;
  }

  /**
   * This plan with every pair of partition indices in {@code pairs} joined, and with them every
   * partition between the two (so that partitions stay contiguous).
   *
   * @param pairs {@code {i, j}} indices into {@link #partitions}
   */
  public PartitionPlan merge(List<int[]> pairs) {
    int n = partitions.size();
    // joinsNext[k]: partition k and k + 1 end up in one partition
    boolean[] joinsNext = new boolean[n];
    for (int[] pair : pairs) {
      int lo = Math.min(pair[0], pair[1]);
      int hi = Math.max(pair[0], pair[1]);
      for (int k = lo; k < hi; k++) {
        joinsNext[k] = true;
      }
    }
    List<Partition> out = new ArrayList<>();
    int start = 0;
    for (int k = 0; k < n; k++) {
      if (!joinsNext[k]) {
        out.add(new Partition(partitions.get(start).first(), partitions.get(k).end()));
        start = k + 1;
      }
    }
    return new PartitionPlan(inputs, out);
  }
}
