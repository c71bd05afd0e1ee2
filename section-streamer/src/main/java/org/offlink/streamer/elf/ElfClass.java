package org.offlink.streamer.elf;

import org.offlink.runtime.EnumLookup;

/** The ELF file class ({@code e_ident[EI_CLASS]}): the width of addresses and offsets. */
public enum ElfClass {
  /** 32-bit objects ({@code ELFCLASS32}, raw value 1). */
  ELF32(1, 52, 40, 16),
  /** 64-bit objects ({@code ELFCLASS64}, raw value 2). */
  ELF64(2, 64, 64, 24);

  private final int raw;
  private final int headerSize;
  private final int sectionHeaderSize;
  private final int symbolSize;

  ElfClass(int raw, int headerSize, int sectionHeaderSize, int symbolSize) {
    this.raw = raw;
    this.headerSize = headerSize;
    this.sectionHeaderSize = sectionHeaderSize;
    this.symbolSize = symbolSize;
  }

  /** The {@code EI_CLASS} byte. */
  public int raw() {
    return raw;
  }

  /** Size of the ELF header ({@code e_ehsize}) for this class. */
  public int headerSize() {
    return headerSize;
  }

  /** Size of one section header ({@code e_shentsize}) for this class. */
  public int sectionHeaderSize() {
    return sectionHeaderSize;
  }

  /** Size of one symbol table entry for this class. */
  public int symbolSize() {
    return symbolSize;
  }

  /** The class for an {@code EI_CLASS} byte, or null if it names none. */
  static ElfClass fromRaw(int raw) {
    return EnumLookup.byCode(values(), ElfClass::raw, raw).orElse(null);
  }
}
