package org.offlink.streamer.write;

/** Symbol binding ({@code STB_*}, the high nibble of {@code st_info}). */
public enum SymbolBinding {
  /** {@code STB_LOCAL}: written before every global and weak symbol. */
  LOCAL(0),
  /** {@code STB_GLOBAL}. */
  GLOBAL(1),
  /** {@code STB_WEAK}. */
  WEAK(2);

  private final int code;

  SymbolBinding(int code) {
    this.code = code;
  }

  /** The raw binding. */
  public int code() {
    return code;
  }
}
