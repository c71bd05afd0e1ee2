package org.offlink.bridge.partition;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the partitions whose device code cannot be linked as compiled, because the whole-program
 * compile would have named or bound a symbol differently.
 *
 * <p>The whole-program accel {@code lto1} renames every {@code static} that shares its assembler
 * name with any other symbol of the program to {@code <name>.lto_priv.<n>} ({@code
 * lto_promote_statics_nonwpa} and {@code rename_statics}, gcc/lto/lto-partition.cc@12:1063-1196). A
 * partition's {@code lto1} sees only its own inputs, so two clashes go unnoticed:
 *
 * <ul>
 *   <li>a symbol defined non-weak in two partitions: nvptx gives every OpenMP entry point {@code
 *       .visible} ({@code write_omp_entry}, gcc/config/nvptx/nvptx.cc@12:1470), so two static
 *       functions of the same name with target regions give two {@code .visible .entry
 *       f$_omp_fn$0}, which the CUDA linker rejects; on gcn the kernel descriptors {@code
 *       f._omp_fn.0.kd} are global and {@code ld.lld} rejects them;
 *   <li>a name the image registers (a kernel, a {@code declare target} variable) that is static in
 *       its partition and defined or mentioned in another, or public and static in another: the
 *       whole program registers {@code cnt$lto_priv$0}, the partitions {@code cnt} twice, and
 *       libgomp's nvptx plugin looks variables and kernels up by name in the linked module ({@code
 *       cuModuleGetGlobal}, {@code cuModuleGetFunction}), so it could map the wrong one.
 * </ul>
 *
 * Both are fixed by compiling the partitions together: their {@code lto1} then renames exactly as
 * the whole-program one does. Statics of the same name that the image does not register (helpers in
 * several units) stay local to their PTX module or object and are left alone.
 */
public final class SymbolClashes {
  private SymbolClashes() {}

  /**
   * The pairs of partition indices that must be compiled together.
   *
   * @param partitions each partition's symbols, in plan order
   */
  public static List<int[]> find(List<PartitionSymbols> partitions) {
    List<int[]> pairs = new ArrayList<>();
    Map<String, Integer> strong = new HashMap<>();
    for (int i = 0; i < partitions.size(); i++) {
      for (Map.Entry<String, PartitionSymbols.Linkage> d : partitions.get(i).defined().entrySet()) {
        if (d.getValue() == PartitionSymbols.Linkage.GLOBAL) {
          Integer other = strong.putIfAbsent(d.getKey(), i);
          if (other != null && other != i) {
            pairs.add(new int[] {other, i});
          }
        }
      }
    }
    Map<String, List<Integer>> appearances = appearances(partitions);
    for (int i = 0; i < partitions.size(); i++) {
      PartitionSymbols p = partitions.get(i);
      for (String name : p.registered()) {
        boolean local = isLocal(p, name);
        for (int j : appearances.getOrDefault(name, List.of())) {
          if (j != i && (local || isLocal(partitions.get(j), name))) {
            pairs.add(new int[] {i, j});
          }
        }
      }
    }
    return pairs;
  }

  private static boolean isLocal(PartitionSymbols p, String name) {
    return p.defined().get(name) == PartitionSymbols.Linkage.LOCAL;
  }

  /** For each name, the partitions that define or mention it, in order. */
  private static Map<String, List<Integer>> appearances(List<PartitionSymbols> partitions) {
    Map<String, List<Integer>> seen = new HashMap<>();
    for (int i = 0; i < partitions.size(); i++) {
      PartitionSymbols p = partitions.get(i);
      for (String name : p.defined().keySet()) {
        seen.computeIfAbsent(name, k -> new ArrayList<>()).add(i);
      }
      for (String name : p.mentioned()) {
        List<Integer> where = seen.computeIfAbsent(name, k -> new ArrayList<>());
        if (where.isEmpty() || where.get(where.size() - 1) != i) {
          where.add(i);
        }
      }
    }
    return seen;
  }
}
