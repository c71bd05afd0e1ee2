package org.offlink.streamer.write;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.offlink.streamer.elf.SectionType;

/**
 * One ELF64 section header ({@code Elf64_Shdr}).
 *
 * <p>Byte layout (64 bytes, little-endian):
 *
 * <pre>
 * offset size field
 *   0     4   sh_name       offset of the name in .shstrtab
 *   4     4   sh_type       SHT_* (see {@link SectionType})
 *   8     8   sh_flags      SHF_* bits (see {@link SectionFlag})
 *  16     8   sh_addr       0 in a relocatable object
 *  24     8   sh_offset     file offset of the contents
 *  32     8   sh_size       size in bytes (memory size for NOBITS)
 *  40     4   sh_link       SYMTAB/RELA: linked section index
 *  44     4   sh_info       SYMTAB: first non-local symbol; RELA: target section
 *  48     8   sh_addralign  0 or a power of two
 *  56     8   sh_entsize    entry size of table sections, else 0
 * </pre>
 *
 * @param name sh_name
 * @param type sh_type (raw)
 * @param flags sh_flags
 * @param offset sh_offset
 * @param size sh_size
 * @param link sh_link
 * @param info sh_info
 * @param alignment sh_addralign
 * @param entrySize sh_entsize
 */
public record Elf64SectionHeader(
    long name,
    long type,
    long flags,
    long offset,
    long size,
    long link,
    long info,
    long alignment,
    long entrySize) {

  /** Size of one section header in bytes. */
  public static final int SIZE = 64;

  /** Checks field widths and that the alignment is a power of two. */
  public Elf64SectionHeader {
    FieldRanges.checkU32("sh_name", name);
    FieldRanges.checkU32("sh_type", type);
    FieldRanges.checkU64("sh_offset", offset);
    FieldRanges.checkU64("sh_size", size);
    FieldRanges.checkU32("sh_link", link);
    FieldRanges.checkU32("sh_info", info);
    FieldRanges.checkPowerOfTwoOrZero("sh_addralign", alignment);
    FieldRanges.checkU64("sh_entsize", entrySize);
  }

  /** The all-zero header at index 0. */
  public static Elf64SectionHeader nullHeader() {
    return new Elf64SectionHeader(0, 0, 0, 0, 0, 0, 0, 0, 0);
  }

  /** Writes the 64 bytes at the buffer's position and advances it. */
  public void writeTo(ByteBuffer out) {
    ByteBuffer b = out.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    b.putInt((int) name).putInt((int) type).putLong(flags).putLong(0).putLong(offset);
    b.putLong(size).putInt((int) link).putInt((int) info).putLong(alignment).putLong(entrySize);
    out.position(out.position() + SIZE);
  }
}
