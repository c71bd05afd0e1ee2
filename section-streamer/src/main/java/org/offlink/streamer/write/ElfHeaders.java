package org.offlink.streamer.write;

import java.nio.ByteBuffer;
import org.offlink.streamer.elf.ElfClass;
import org.offlink.streamer.elf.ElfHeader;
import org.offlink.streamer.elf.SectionHeader;

/**
 * The one encoder of the ELF file header, shared by offlink's three object writers ({@link
 * ElfObjectBuilder}'s, the section editor's and the early-debug copier's): the inverse of {@link
 * org.offlink.streamer.elf.ElfReader}'s header decoding, for either class and byte order (the
 * layout table is {@link ElfHeader}'s). A section count or name-table index of {@code
 * SHN_LORESERVE} or more is written as extended numbering ({@code e_shnum} 0, {@code e_shstrndx}
 * {@code SHN_XINDEX}; the real values go in section 0, {@link SectionHeader#zero}).
 */
public final class ElfHeaders {
  private ElfHeaders() {}

  /** Writes {@code h} at the buffer's position, in {@code h}'s byte order, and advances it. */
  public static void write(ByteBuffer out, ElfHeader h) {
    ElfClass c = h.elfClass();
    out.order(h.byteOrder());
    int start = out.position();
    out.put(new byte[] {0x7f, 'E', 'L', 'F', (byte) c.raw(), (byte) h.data().raw(), 1});
    out.put((byte) h.osAbi()).put((byte) h.abiVersion());
    out.position(start + 16);
    out.putShort((short) h.rawType()).putShort((short) h.machine()).putInt((int) h.version());
    putAddr(out, c, h.entry());
    putAddr(out, c, h.phoff());
    putAddr(out, c, h.shoff());
    out.putInt((int) h.flags());
    out.putShort((short) h.ehsize()).putShort((short) h.phentsize()).putShort((short) h.phnum());
    out.putShort((short) h.shentsize());
    out.putShort((short) (h.shnum() >= ElfHeader.SHN_LORESERVE ? 0 : h.shnum()));
    out.putShort(
        (short) (h.shstrndx() >= ElfHeader.SHN_LORESERVE ? ElfHeader.SHN_XINDEX : h.shstrndx()));
  }

  /**
   * Writes section header {@code h} ({@code elfClass}'s size) at the buffer's position, in the
   * buffer's byte order, and advances it.
   */
  public static void writeSection(ByteBuffer out, ElfClass elfClass, SectionHeader h) {
    out.putInt((int) h.name()).putInt((int) h.type());
    putAddr(out, elfClass, h.flags());
    putAddr(out, elfClass, h.addr());
    putAddr(out, elfClass, h.offset());
    putAddr(out, elfClass, h.size());
    out.putInt((int) h.link()).putInt((int) h.info());
    putAddr(out, elfClass, h.alignment());
    putAddr(out, elfClass, h.entrySize());
  }

  /** An address-sized field: 8 bytes in ELF64, the low 4 in ELF32. */
  static void putAddr(ByteBuffer out, ElfClass elfClass, long value) {
    if (elfClass == ElfClass.ELF64) {
      out.putLong(value);
    } else {
      out.putInt((int) value);
    }
  }
}
