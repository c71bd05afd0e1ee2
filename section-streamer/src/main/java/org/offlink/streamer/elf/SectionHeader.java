package org.offlink.streamer.elf;

/**
 * One section header ({@code Elf32_Shdr} / {@code Elf64_Shdr}) as stored, in either class: read by
 * {@link ElfReader} (before its name is looked up), written by {@link
 * org.offlink.streamer.write.ElfHeaders#writeSection}. The 64-bit fields are kept as the raw bits
 * they are on disk (a copied section keeps whatever its input said); the 32-bit fields must fit.
 *
 * <pre>
 * offset (32/64)  size (32/64)  field
 *  0 /  0           4            sh_name       offset of the name in the section-name table
 *  4 /  4           4            sh_type       SHT_* (see {@link SectionType})
 *  8 /  8          4 / 8         sh_flags      SHF_* bits
 * 12 / 16          4 / 8         sh_addr       0 in a relocatable object
 * 16 / 24          4 / 8         sh_offset     file offset of the contents
 * 20 / 32          4 / 8         sh_size       size in bytes (memory size for NOBITS)
 * 24 / 40           4            sh_link       SYMTAB/RELA: linked section index
 * 28 / 44           4            sh_info       SYMTAB: first non-local symbol; RELA: target
 * 32 / 48          4 / 8         sh_addralign  0 or a power of two
 * 36 / 56          4 / 8         sh_entsize    entry size of table sections, else 0
 * </pre>
 *
 * (ELF32's 4-byte fields take the low 32 bits.)
 *
 * @param name sh_name
 * @param type sh_type (raw)
 * @param flags sh_flags
 * @param addr sh_addr
 * @param offset sh_offset
 * @param size sh_size
 * @param link sh_link
 * @param info sh_info
 * @param alignment sh_addralign
 * @param entrySize sh_entsize
 */
public record SectionHeader(
    long name,
    long type,
    long flags,
    long addr,
    long offset,
    long size,
    long link,
    long info,
    long alignment,
    long entrySize) {

  /** Checks that the 32-bit fields fit. */
  public SectionHeader {
    FieldRanges.checkU32("sh_name", name);
    FieldRanges.checkU32("sh_type", type);
    FieldRanges.checkU32("sh_link", link);
    FieldRanges.checkU32("sh_info", info);
  }

  /**
   * Section 0 of an object whose header is {@code h}: all zero, except that it holds the section
   * count ({@code sh_size}) and the section-name table index ({@code sh_link}) when they do not fit
   * the ELF header's 16-bit fields (extended numbering, see {@link
   * org.offlink.streamer.write.ElfHeaders}).
   */
  public static SectionHeader zero(ElfHeader h) {
    long count = h.shnum() >= ElfHeader.SHN_LORESERVE ? h.shnum() : 0;
    long names = h.shstrndx() >= ElfHeader.SHN_LORESERVE ? h.shstrndx() : 0;
    return new SectionHeader(0, 0, 0, 0, 0, count, names, 0, 0, 0);
  }
}
