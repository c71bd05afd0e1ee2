package org.offlink.streamer.elf;

/** Symbol visibility ({@code ELF_ST_VISIBILITY(st_other)}, two bits, all values named). */
public enum SymbolVisibility {
  /** As given by the binding. */
  DEFAULT,
  /** Processor-specific hidden. */
  INTERNAL,
  /** Not visible outside the component. */
  HIDDEN,
  /** Visible but not preemptible. */
  PROTECTED;

  /** The low two bits of {@code st_other}. */
  public int raw() {
    return ordinal();
  }

  /** The visibility for the low two bits of {@code st_other}. */
  public static SymbolVisibility fromOther(int other) {
    return values()[other & 3];
  }
}
