package org.offlink.streamer.lto;

import java.nio.file.Path;
import java.util.Optional;
import org.offlink.runtime.EnumLookup;
import org.offlink.streamer.MalformedObjectException;

/**
 * The host-side offload tables a compile with {@code -foffload} emits, which libgomp pairs with the
 * device image's tables by position. Entries are pointer-sized words:
 *
 * <pre>
 * section                   entry                       ELF64  ELF32
 * .gnu.offload_funcs        function address            8      4
 * .gnu.offload_vars         address, size               16     8
 * .gnu.offload_ind_funcs    function address (GCC 14+)  8      4
 * </pre>
 */
public enum HostOffloadTable {
  FUNCS(".gnu.offload_funcs", 1),
  VARS(".gnu.offload_vars", 2),
  IND_FUNCS(".gnu.offload_ind_funcs", 1);

  private final String sectionName;
  private final int words;

  HostOffloadTable(String sectionName, int words) {
    this.sectionName = sectionName;
    this.words = words;
  }

  /** The ELF section name. */
  public String sectionName() {
    return sectionName;
  }

  /** Entry size in bytes for ELF64 ({@code elf64} true) or ELF32. */
  public int entrySize(boolean elf64) {
    return words * (elf64 ? 8 : 4);
  }

  /** Number of entries in a section of {@code sectionSize} bytes; rejects partial entries. */
  public long entryCount(Path file, long sectionSize, boolean elf64)
      throws MalformedObjectException {
    int entry = entrySize(elf64);
    if (sectionSize < 0 || sectionSize % entry != 0) {
      throw new MalformedObjectException(
          file,
          -1,
          "expected "
              + sectionName
              + " to hold whole "
              + entry
              + "-byte entries, found "
              + sectionSize
              + " bytes");
    }
    return sectionSize / entry;
  }

  /** The table stored in {@code sectionName}, if it is one. */
  public static Optional<HostOffloadTable> ofSection(String sectionName) {
    return EnumLookup.byKey(values(), HostOffloadTable::sectionName, sectionName);
  }
}
