package org.offlink.streamer.elf;

import org.offlink.runtime.EnumLookup;

/** The object file type ({@code e_type}); {@link #UNKNOWN} for values this model does not name. */
public enum ElfType {
  /** No file type. */
  NONE(0),
  /** Relocatable object ({@code .o}). */
  REL(1),
  /** Executable. */
  EXEC(2),
  /** Shared object or position-independent executable. */
  DYN(3),
  /** Core dump. */
  CORE(4),
  /** Any other value; the raw value stays in {@link ElfHeader#rawType()}. */
  UNKNOWN(-1);

  private final int raw;

  ElfType(int raw) {
    this.raw = raw;
  }

  /** The {@code e_type} value, -1 for {@link #UNKNOWN}. */
  public int raw() {
    return raw;
  }

  /** The type for an {@code e_type} value. */
  public static ElfType fromRaw(int raw) {
    return EnumLookup.byCode(values(), ElfType::raw, raw).orElse(UNKNOWN);
  }
}
