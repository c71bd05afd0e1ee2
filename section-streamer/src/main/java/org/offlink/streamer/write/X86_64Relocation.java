package org.offlink.streamer.write;

/**
 * Common x86-64 relocation types ({@code R_X86_64_*}, psABI table 4.9). {@link
 * ElfObjectBuilder#rela(ElfObjectBuilder.SectionHandle, long, int, ElfObjectBuilder.SymbolHandle,
 * long)} also takes any other type by number.
 */
public enum X86_64Relocation {
  /** {@code R_X86_64_NONE}. */
  NONE(0),
  /** {@code R_X86_64_64}: S + A, 8 bytes. */
  R_64(1),
  /** {@code R_X86_64_PC32}: S + A - P, 4 bytes. */
  PC32(2),
  /** {@code R_X86_64_GOT32}. */
  GOT32(3),
  /** {@code R_X86_64_PLT32}: L + A - P, 4 bytes (calls). */
  PLT32(4),
  /** {@code R_X86_64_GOTPCREL}: G + GOT + A - P. */
  GOTPCREL(9),
  /** {@code R_X86_64_32}. */
  R_32(10),
  /** {@code R_X86_64_32S}. */
  R_32S(11),
  /** {@code R_X86_64_PC64}. */
  PC64(24),
  /** {@code R_X86_64_GOTPCRELX}: relaxable GOTPCREL without REX prefix. */
  GOTPCRELX(41),
  /** {@code R_X86_64_REX_GOTPCRELX}: relaxable GOTPCREL with REX prefix. */
  REX_GOTPCRELX(42);

  private final int code;

  X86_64Relocation(int code) {
    this.code = code;
  }

  /** The raw relocation type. */
  public int code() {
    return code;
  }
}
