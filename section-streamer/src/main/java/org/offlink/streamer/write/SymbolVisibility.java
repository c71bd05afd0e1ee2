package org.offlink.streamer.write;

/** Symbol visibility ({@code STV_*}, the low two bits of {@code st_other}). */
public enum SymbolVisibility {
  /** {@code STV_DEFAULT}. */
  DEFAULT(0),
  /** {@code STV_INTERNAL}. */
  INTERNAL(1),
  /** {@code STV_HIDDEN}: resolved within the output module. */
  HIDDEN(2),
  /** {@code STV_PROTECTED}. */
  PROTECTED(3);

  private final int code;

  SymbolVisibility(int code) {
    this.code = code;
  }

  /** The raw visibility. */
  public int code() {
    return code;
  }
}
