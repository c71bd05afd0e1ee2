package org.offlink.streamer.write;

/** Symbol type ({@code STT_*}, the low nibble of {@code st_info}). */
public enum SymbolType {
  /** {@code STT_NOTYPE}. */
  NOTYPE(0),
  /** {@code STT_OBJECT}. */
  OBJECT(1),
  /** {@code STT_FUNC}. */
  FUNC(2),
  /** {@code STT_SECTION}: created by {@link ElfObjectBuilder#sectionSymbol}. */
  SECTION(3),
  /** {@code STT_FILE}: created by {@link ElfObjectBuilder#fileSymbol}. */
  FILE(4);

  private final int code;

  SymbolType(int code) {
    this.code = code;
  }

  /** The raw type. */
  public int code() {
    return code;
  }
}
