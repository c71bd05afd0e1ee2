package org.offlink.ltowrapper.io;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What lto-wrapper needs from one input object, read in one pass over its section headers: the raw
 * strings of its {@code .gnu.lto_.opts} and {@code .gnu.offload_lto_.opts} sections (still in
 * COLLECT_GCC_OPTIONS quoting; empty when absent), the byte sizes of its host offload tables, and
 * where its offload IR and early debug sections lie (for the device-image cache key, and whether
 * there is early debug info to copy).
 *
 * @param hostOpts {@code .gnu.lto_.opts}: the object carries host LTO IR
 * @param offloadOpts {@code .gnu.offload_lto_.opts}: the object carries offload IR
 * @param tables the host offload table sections, empty when the input is not an ELF object
 * @param offloadIr the {@code .gnu.offload_lto_*} sections, in section-header order
 * @param earlyDebug the {@code .gnu.debuglto_*} sections, in section-header order
 */
public record ObjectScan(
    Optional<List<String>> hostOpts,
    Optional<List<String>> offloadOpts,
    Optional<TableSections> tables,
    List<SectionRange> offloadIr,
    List<SectionRange> earlyDebug) {
  /** An input that is not a readable object: no options, no tables (GCC: "not found"). */
  public static final ObjectScan NOT_AN_OBJECT =
      new ObjectScan(Optional.empty(), Optional.empty(), Optional.empty(), List.of(), List.of());

  /** The section whose presence makes lto-wrapper copy an object's early debug info. */
  public static final String EARLY_DEBUG_INFO = ".gnu.debuglto_.debug_info";

  /** Copies the lists. */
  public ObjectScan {
    hostOpts = hostOpts.map(List::copyOf);
    offloadOpts = offloadOpts.map(List::copyOf);
    Objects.requireNonNull(tables, "tables");
    offloadIr = List.copyOf(offloadIr);
    earlyDebug = List.copyOf(earlyDebug);
  }

  /** Whether the object has early debug info ({@link #EARLY_DEBUG_INFO}) to copy. */
  public boolean hasEarlyDebugInfo() {
    for (SectionRange r : earlyDebug) {
      if (r.name().equals(EARLY_DEBUG_INFO)) {
        return true;
      }
    }
    return false;
  }

  /**
   * One section's bytes in the input file.
   *
   * @param name the section name
   * @param offset where its bytes start, from the start of the file (an archive member's offset
   *     included)
   * @param size how many bytes
   */
  public record SectionRange(String name, long offset, long size) {}

  /**
   * The sizes of an object's {@code .gnu.offload_funcs} and {@code .gnu.offload_vars} (0 when
   * absent) and its ELF class, from which the entry counts follow.
   */
  public record TableSections(long funcsBytes, long varsBytes, boolean elf64) {}
}
