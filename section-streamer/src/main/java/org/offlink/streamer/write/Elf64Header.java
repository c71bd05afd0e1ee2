package org.offlink.streamer.write;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The ELF64 file header of a little-endian relocatable object, as the writer emits it.
 *
 * <p>Byte layout (64 bytes, little-endian):
 *
 * <pre>
 * offset size field
 *   0     4   e_ident[EI_MAG0..3]  0x7f 'E' 'L' 'F'
 *   4     1   e_ident[EI_CLASS]    2 (ELFCLASS64)
 *   5     1   e_ident[EI_DATA]     1 (ELFDATA2LSB)
 *   6     1   e_ident[EI_VERSION]  1
 *   7     1   e_ident[EI_OSABI]    0 (System V)
 *   8     8   EI_ABIVERSION + pad  0
 *  16     2   e_type               1 (ET_REL)
 *  18     2   e_machine            62 (EM_X86_64)
 *  20     4   e_version            1
 *  24     8   e_entry              0
 *  32     8   e_phoff              0
 *  40     8   e_shoff              section header table offset
 *  48     4   e_flags              0 for x86-64
 *  52     2   e_ehsize             64
 *  54     2   e_phentsize          0 (no program headers in ET_REL)
 *  56     2   e_phnum              0
 *  58     2   e_shentsize          64
 *  60     2   e_shnum              number of section headers
 *  62     2   e_shstrndx           index of .shstrtab
 * </pre>
 *
 * @param type e_type (1 = ET_REL)
 * @param machine e_machine (62 = EM_X86_64)
 * @param flags e_flags
 * @param sectionHeaderOffset e_shoff
 * @param sectionCount e_shnum
 * @param sectionNameIndex e_shstrndx
 */
public record Elf64Header(
    int type,
    int machine,
    int flags,
    long sectionHeaderOffset,
    int sectionCount,
    int sectionNameIndex) {

  /** Size of the header in bytes. */
  public static final int SIZE = 64;

  /** {@code e_type} of a relocatable object. */
  public static final int ET_REL = 1;

  /** {@code e_machine} of x86-64. */
  public static final int EM_X86_64 = 62;

  /** Checks that every field fits its on-disk width. */
  public Elf64Header {
    FieldRanges.checkU16("e_type", type);
    FieldRanges.checkU16("e_machine", machine);
    FieldRanges.checkU64("e_shoff", sectionHeaderOffset);
    if (sectionCount < 0 || sectionCount >= 0xff00) {
      throw new IllegalArgumentException("section count out of range: " + sectionCount);
    }
    if (sectionNameIndex < 0 || sectionNameIndex >= Math.max(sectionCount, 1)) {
      throw new IllegalArgumentException("e_shstrndx out of range: " + sectionNameIndex);
    }
  }

  /** Writes the 64 header bytes at the buffer's position. */
  public void writeTo(ByteBuffer out) {
    ByteBuffer b = out.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    b.putShort((short) type).putShort((short) machine).putInt(1);
    b.putLong(0).putLong(0).putLong(sectionHeaderOffset);
    b.putInt(flags).putShort((short) SIZE).putShort((short) 0).putShort((short) 0);
    b.putShort((short) Elf64SectionHeader.SIZE);
    b.putShort((short) sectionCount).putShort((short) sectionNameIndex);
    out.position(out.position() + SIZE);
  }
}
