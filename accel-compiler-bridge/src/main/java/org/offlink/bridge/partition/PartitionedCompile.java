package org.offlink.bridge.partition;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Compiles an image's offload inputs in partitions ({@link PartitionPlan}): each partition's
 * artifact comes from the cache or from one accel compile, the partitions run concurrently on the
 * {@link PartitionExecutor}, and partitions whose symbols clash ({@link SymbolClashes}) are joined
 * and compiled again until none clash. The result is ready for the target's link step.
 */
public final class PartitionedCompile {
  /**
   * The compiled partitions.
   *
   * @param plan the final plan
   * @param artifacts one per partition of the plan, in order
   * @param requiresMask the whole program's OpenMP {@code requires} mask ({@link RequiresMasks})
   */
  public record Result(PartitionPlan plan, List<PartitionArtifact> artifacts, int requiresMask) {}

  private final PartitionCompiler compiler;
  private final PartitionServices services;
  private final Consumer<String> say;
  private final Map<Partition, PartitionArtifact> compiled = new HashMap<>();
  private final Map<Partition, PartitionSymbols> symbols = new HashMap<>();
  private final AtomicInteger compiles = new AtomicInteger();
  private final AtomicInteger hits = new AtomicInteger();

  /** A compile of {@code compiler}'s partitions on {@code services}, telling {@code say}. */
  public PartitionedCompile(
      PartitionCompiler compiler, PartitionServices services, Consumer<String> say) {
    this.compiler = Objects.requireNonNull(compiler, "compiler");
    this.services = Objects.requireNonNull(services, "services");
    this.say = Objects.requireNonNull(say, "say");
  }

  /** Compiles {@code inputs} (spelled as on the command line, in link order). */
  public Result run(List<String> inputs) throws IOException, WholeProgramNeeded {
    PartitionPlan plan = PartitionPlan.initial(inputs.size());
    while (true) {
      compileMissing(plan, inputs);
      List<PartitionSymbols> found = new ArrayList<>();
      for (Partition p : plan.partitions()) {
        found.add(symbolsOf(p));
      }
      List<int[]> clashes = SymbolClashes.find(found);
      if (clashes.isEmpty()) {
        break;
      }
      PartitionPlan merged = plan.merge(clashes);
      tell(
          "symbols clash, joining "
              + plan.partitions().size()
              + " partitions into "
              + merged.partitions().size());
      plan = merged;
    }
    List<PartitionArtifact> artifacts = new ArrayList<>();
    List<Integer> masks = new ArrayList<>();
    for (Partition p : plan.partitions()) {
      artifacts.add(compiled.get(p));
      masks.add(compiled.get(p).requiresMask());
    }
    int mask = RequiresMasks.combine(masks);
    tell(
        plan.partitions().size()
            + " for "
            + inputs.size()
            + " inputs, "
            + compiles.get()
            + " compiled, "
            + hits.get()
            + " from the cache");
    return new Result(plan, artifacts, mask);
  }

  private void compileMissing(PartitionPlan plan, List<String> inputs) throws IOException {
    List<Partition> todo = new ArrayList<>();
    List<PartitionJob<PartitionArtifact>> jobs = new ArrayList<>();
    for (Partition p : plan.partitions()) {
      if (!compiled.containsKey(p)) {
        List<String> in = inputs.subList(p.first(), p.end());
        todo.add(p);
        jobs.add(() -> obtain(p, in));
      }
    }
    List<PartitionArtifact> done = services.executor().runAll(jobs);
    for (int i = 0; i < todo.size(); i++) {
      compiled.put(todo.get(i), done.get(i));
    }
  }

  /** The partition's artifact from the cache, else compiled (and stored). */
  private PartitionArtifact obtain(Partition p, List<String> inputs) throws IOException {
    List<String> recipe = compiler.recipe(inputs);
    Optional<byte[]> cached = services.cache().find(compiler.target(), recipe, inputs);
    if (cached.isPresent()) {
      Optional<PartitionArtifact> a = decode(cached.get());
      if (a.isPresent()) {
        hits.incrementAndGet();
        return a.get();
      }
    }
    compiles.incrementAndGet();
    PartitionArtifact a = compiler.compile(p, inputs);
    services.cache().store(compiler.target(), recipe, inputs, a);
    return a;
  }

  /** A cached artifact for this target, or empty (compiled instead) when it is not one. */
  private Optional<PartitionArtifact> decode(byte[] bytes) {
    try {
      PartitionArtifact a = PartitionArtifactReader.read(bytes);
      return a.target() == compiler.target() ? Optional.of(a) : Optional.empty();
    } catch (IllegalArgumentException e) {
      tell(e.getMessage());
      return Optional.empty();
    }
  }

  /** Says {@code what} of this target's device partitions. */
  private void tell(String what) {
    say.accept(compiler.target().triplet() + ": device partitions: " + what);
  }

  private PartitionSymbols symbolsOf(Partition p) throws IOException {
    PartitionSymbols s = symbols.get(p);
    if (s == null) {
      s = compiler.symbols(compiled.get(p));
      symbols.put(p, s);
    }
    return s;
  }
}
