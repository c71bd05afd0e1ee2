package org.offlink.streamer.elf;

import org.offlink.runtime.EnumLookup;

/** Symbol type ({@code ELF_ST_TYPE(st_info)}); {@link #UNKNOWN} for other values. */
public enum SymbolType {
  /** Unspecified. */
  NOTYPE(0),
  /** Data object. */
  OBJECT(1),
  /** Function. */
  FUNC(2),
  /** A section (used as relocation base). */
  SECTION(3),
  /** Source file name. */
  FILE(4),
  /** Common block. */
  COMMON(5),
  /** Thread-local object. */
  TLS(6),
  /** GNU indirect function. */
  GNU_IFUNC(10),
  /** Any other value; see {@link ElfSymbol#info()}. */
  UNKNOWN(-1);

  private final int raw;

  SymbolType(int raw) {
    this.raw = raw;
  }

  /** The raw type, -1 for {@link #UNKNOWN}. */
  public int raw() {
    return raw;
  }

  /** The type for a raw value. */
  public static SymbolType fromRaw(int raw) {
    return EnumLookup.byCode(values(), SymbolType::raw, raw).orElse(UNKNOWN);
  }
}
