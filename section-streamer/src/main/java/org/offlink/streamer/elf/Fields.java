package org.offlink.streamer.elf;

import java.nio.ByteBuffer;

/**
 * Sequential decoder of ELF fields: the one place where the ELF class decides whether an address or
 * offset field is 4 or 8 bytes. The byte order comes from the buffer.
 */
final class Fields {
  private final ElfClass elfClass;
  private final ByteBuffer buf;

  Fields(ElfClass elfClass, ByteBuffer buf) {
    this.elfClass = elfClass;
    this.buf = buf;
  }

  void position(int pos) {
    buf.position(pos);
  }

  /** An unsigned byte. */
  int u8() {
    return buf.get() & 0xff;
  }

  /** An unsigned 16-bit {@code Elf_Half}. */
  int half() {
    return buf.getShort() & 0xffff;
  }

  /** An unsigned 32-bit {@code Elf_Word}. */
  long word() {
    return buf.getInt() & 0xffffffffL;
  }

  /** An {@code Elf_Addr}/{@code Elf_Off}/{@code Xword}: 4 bytes in ELF32, 8 in ELF64. */
  long addr() {
    return elfClass == ElfClass.ELF64 ? buf.getLong() : word();
  }

  /** A signed {@code Sxword}/{@code Sword}: 4 bytes in ELF32, 8 in ELF64. */
  long signedAddr() {
    return elfClass == ElfClass.ELF64 ? buf.getLong() : buf.getInt();
  }
}
