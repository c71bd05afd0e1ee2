package org.offlink.ltowrapper.io;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What lto-wrapper needs from one input object, read in one pass over its section headers: the raw
 * strings of its {@code .gnu.lto_.opts} and {@code .gnu.offload_lto_.opts} sections (still in
 * COLLECT_GCC_OPTIONS quoting; empty when absent) and the byte sizes of its host offload tables.
 *
 * @param hostOpts {@code .gnu.lto_.opts}: the object carries host LTO IR
 * @param offloadOpts {@code .gnu.offload_lto_.opts}: the object carries offload IR
 * @param tables the host offload table sections, empty when the input is not an ELF object
 */
public record ObjectScan(
    Optional<List<String>> hostOpts,
    Optional<List<String>> offloadOpts,
    Optional<TableSections> tables) {
  /** An input that is not a readable object: no options, no tables (GCC: "not found"). */
  public static final ObjectScan NOT_AN_OBJECT =
      new ObjectScan(Optional.empty(), Optional.empty(), Optional.empty());

  /** Copies the lists. */
  public ObjectScan {
    hostOpts = hostOpts.map(List::copyOf);
    offloadOpts = offloadOpts.map(List::copyOf);
    Objects.requireNonNull(tables, "tables");
  }

  /**
   * The sizes of an object's {@code .gnu.offload_funcs} and {@code .gnu.offload_vars} (0 when
   * absent) and its ELF class, from which the entry counts follow.
   */
  public record TableSections(long funcsBytes, long varsBytes, boolean elf64) {}
}
