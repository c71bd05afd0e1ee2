package org.offlink.streamer.elf;

import java.nio.ByteOrder;
import java.util.Objects;

/**
 * The ELF file header, with the section count and section-name table index already resolved through
 * extended numbering.
 *
 * <pre>
 * offset (32/64)  size (32/64)  field
 *  0 /  0          16            e_ident: 7f 'E' 'L' 'F', class, data, version, OS ABI, ABI version
 * 16 / 16           2            e_type
 * 18 / 18           2            e_machine
 * 20 / 20           4            e_version
 * 24 / 24          4 / 8         e_entry
 * 28 / 32          4 / 8         e_phoff
 * 32 / 40          4 / 8         e_shoff
 * 36 / 48           4            e_flags
 * 40 / 52           2            e_ehsize
 * 42 / 54           2            e_phentsize
 * 44 / 56           2            e_phnum
 * 46 / 58           2            e_shentsize
 * 48 / 60           2            e_shnum     (0 when the count is &gt;= 0xff00: section 0's sh_size)
 * 50 / 62           2            e_shstrndx  (0xffff = SHN_XINDEX: section 0's sh_link)
 * </pre>
 *
 * @param elfClass 32 or 64 bit
 * @param data byte order
 * @param osAbi {@code e_ident[EI_OSABI]}
 * @param abiVersion {@code e_ident[EI_ABIVERSION]}
 * @param rawType {@code e_type}; see {@link #type()}
 * @param machine {@code e_machine}; see {@link ElfMachine}
 * @param version {@code e_version}
 * @param entry {@code e_entry}
 * @param phoff {@code e_phoff}, relative to the object start
 * @param shoff {@code e_shoff}, relative to the object start
 * @param flags {@code e_flags} (for AMD GPUs: the GFX target and feature bits)
 * @param ehsize {@code e_ehsize}
 * @param phentsize {@code e_phentsize}
 * @param phnum {@code e_phnum}
 * @param shentsize {@code e_shentsize}
 * @param shnum the real number of section headers (resolved through extended numbering)
 * @param shstrndx the real index of the section-name string table (resolved through SHN_XINDEX)
 */
public record ElfHeader(
    ElfClass elfClass,
    ElfData data,
    int osAbi,
    int abiVersion,
    int rawType,
    int machine,
    long version,
    long entry,
    long phoff,
    long shoff,
    long flags,
    int ehsize,
    int phentsize,
    int phnum,
    int shentsize,
    int shnum,
    int shstrndx) {

  /** {@code e_shnum} value meaning "see section 0" and the first reserved section index. */
  public static final int SHN_LORESERVE = 0xff00;

  /** {@code e_shstrndx} / {@code st_shndx} value meaning "the real index is elsewhere". */
  public static final int SHN_XINDEX = 0xffff;

  /** Validates the fields that have a fixed range. */
  public ElfHeader {
    Objects.requireNonNull(elfClass, "elfClass");
    Objects.requireNonNull(data, "data");
    if (shnum < 0 || shstrndx < 0 || phnum < 0) {
      throw new IllegalArgumentException("negative section or segment count");
    }
    if (shstrndx != 0 && shstrndx >= shnum) {
      throw new IllegalArgumentException(
          "shstrndx " + shstrndx + " out of range for " + shnum + " sections");
    }
  }

  /** The object type; {@link ElfType#UNKNOWN} when {@link #rawType()} is not named. */
  public ElfType type() {
    return ElfType.fromRaw(rawType);
  }

  /**
   * This header with the real section count and section-name table index (extended numbering
   * resolved by the reader).
   */
  public ElfHeader withSections(int sectionCount, int nameTableIndex) {
    return new ElfHeader(
        elfClass,
        data,
        osAbi,
        abiVersion,
        rawType,
        machine,
        version,
        entry,
        phoff,
        shoff,
        flags,
        ehsize,
        phentsize,
        phnum,
        shentsize,
        sectionCount,
        nameTableIndex);
  }

  /** The byte order of every multi-byte field. */
  public ByteOrder byteOrder() {
    return data.byteOrder();
  }
}
