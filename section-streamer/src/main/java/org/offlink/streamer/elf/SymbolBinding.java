package org.offlink.streamer.elf;

import org.offlink.runtime.EnumLookup;

/** Symbol binding ({@code ELF_ST_BIND(st_info)}); {@link #UNKNOWN} for other values. */
public enum SymbolBinding {
  /** Visible only inside the object. */
  LOCAL(0),
  /** Visible to every object. */
  GLOBAL(1),
  /** Global with lower precedence. */
  WEAK(2),
  /** GNU unique global. */
  GNU_UNIQUE(10),
  /** Any other value; see {@link ElfSymbol#info()}. */
  UNKNOWN(-1);

  private final int raw;

  SymbolBinding(int raw) {
    this.raw = raw;
  }

  /** The raw binding, -1 for {@link #UNKNOWN}. */
  public int raw() {
    return raw;
  }

  /** The binding for a raw value. */
  public static SymbolBinding fromRaw(int raw) {
    return EnumLookup.byCode(values(), SymbolBinding::raw, raw).orElse(UNKNOWN);
  }
}
