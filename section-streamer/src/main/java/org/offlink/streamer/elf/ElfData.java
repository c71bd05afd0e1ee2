package org.offlink.streamer.elf;

import java.nio.ByteOrder;
import org.offlink.runtime.EnumLookup;

/** The ELF data encoding ({@code e_ident[EI_DATA]}): the byte order of every multi-byte field. */
public enum ElfData {
  /** Two's complement, little endian ({@code ELFDATA2LSB}, raw value 1). */
  LSB(1, ByteOrder.LITTLE_ENDIAN),
  /** Two's complement, big endian ({@code ELFDATA2MSB}, raw value 2). */
  MSB(2, ByteOrder.BIG_ENDIAN);

  private final int raw;
  private final ByteOrder byteOrder;

  ElfData(int raw, ByteOrder byteOrder) {
    this.raw = raw;
    this.byteOrder = byteOrder;
  }

  /** The {@code EI_DATA} byte. */
  public int raw() {
    return raw;
  }

  /** The matching NIO byte order. */
  public ByteOrder byteOrder() {
    return byteOrder;
  }

  /** The encoding for an {@code EI_DATA} byte, or null if it names none. */
  static ElfData fromRaw(int raw) {
    return EnumLookup.byCode(values(), ElfData::raw, raw).orElse(null);
  }
}
