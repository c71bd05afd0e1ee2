package org.offlink.streamer.elf;

/**
 * One relocation of a {@code SHT_REL} or {@code SHT_RELA} section.
 *
 * <pre>
 * ELF32: r_offset 4, r_info 4 (sym = info &gt;&gt; 8,  type = info &amp; 0xff),        [r_addend 4]
 * ELF64: r_offset 8, r_info 8 (sym = info &gt;&gt; 32, type = info &amp; 0xffffffff), [r_addend 8]
 * </pre>
 *
 * @param offset {@code r_offset}
 * @param symbolIndex the symbol table index from {@code r_info}
 * @param type the machine-specific relocation type from {@code r_info}
 * @param addend {@code r_addend}; 0 for {@code SHT_REL}
 */
public record ElfRelocation(long offset, long symbolIndex, long type, long addend) {

  /** Validates the fields. */
  public ElfRelocation {
    if (symbolIndex < 0 || type < 0) {
      throw new IllegalArgumentException("negative relocation symbol or type");
    }
  }
}
