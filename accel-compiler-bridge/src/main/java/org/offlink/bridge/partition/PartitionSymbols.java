package org.offlink.bridge.partition;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The symbols one partition's device code defines and mentions, as far as they decide whether it
 * can be linked with the other partitions' code into the image the whole-program compile would give
 * ({@link SymbolClashes}).
 *
 * @param defined every symbol the partition defines, with its linkage
 * @param mentioned every symbol the partition declares or refers to without defining it
 * @param registered the names the image registers with libgomp from this partition (nvptx: its
 *     {@code FUNC_MAP}, {@code VAR_MAP} and {@code IND_FUNC_MAP} names; gcn: its kernels)
 */
public record PartitionSymbols(
    Map<String, Linkage> defined, Set<String> mentioned, Set<String> registered) {
  /** Copies the fields. */
  public PartitionSymbols {
    defined = Map.copyOf(Objects.requireNonNull(defined, "defined"));
    mentioned = Set.copyOf(Objects.requireNonNull(mentioned, "mentioned"));
    registered = Set.copyOf(Objects.requireNonNull(registered, "registered"));
  }

  /** How a definition binds. */
  public enum Linkage {
    /** Seen only inside its own module or object (a C {@code static}). */
    LOCAL,
    /** Visible to the other modules; two of them clash. */
    GLOBAL,
    /** Visible, and the linker keeps one of several (C++ inline functions, templates). */
    WEAK
  }
}
