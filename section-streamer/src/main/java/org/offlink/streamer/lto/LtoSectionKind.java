package org.offlink.streamer.lto;

import org.offlink.runtime.EnumLookup;

/**
 * GCC 12's LTO section kinds ({@code lto_section_name[]} in lto-streamer.cc), plus {@link #UNKNOWN}
 * for kinds of other GCC versions; {@link LtoSectionName#name()} keeps the raw word.
 *
 * <p>{@link #isCompressed()} says whether the section's bytes are a whole zstd/zlib stream.
 * Verified on objects from Debian's gcc-12 (host and offload, with and without {@code -flto}):
 * every kind is compressed except {@code opts}, the {@code lto} header, {@code symtab} and {@code
 * ext_symtab} (the latter two are read raw by the linker plugin).
 */
public enum LtoSectionKind {
  DECLS("decls"),
  FUNCTION_BODY("function_body"),
  STATICS("statics"),
  SYMTAB("symtab", false),
  EXT_SYMTAB("ext_symtab", false),
  REFS("refs"),
  ASM("asm"),
  JMPFUNCS("jmpfuncs"),
  PURECONST("pureconst"),
  REFERENCE("reference"),
  PROFILE("profile"),
  SYMBOL_NODES("symbol_nodes"),
  OPTS("opts", false),
  CGRAPHOPT("cgraphopt"),
  INLINE("inline"),
  IPCP_TRANS("ipcp_trans"),
  ICF("icf"),
  OFFLOAD_TABLE("offload_table"),
  MODE_TABLE("mode_table"),
  LTO("lto", false),
  IPA_SRA("ipa_sra"),
  ODR_TYPES("odr_types"),
  IPA_MODREF("ipa_modref"),
  /** A kind this model does not know; the word is in {@link LtoSectionName#name()}. */
  UNKNOWN(null, false);

  private final String word;
  private final boolean compressed;

  LtoSectionKind(String word) {
    this(word, true);
  }

  LtoSectionKind(String word, boolean compressed) {
    this.word = word;
    this.compressed = compressed;
  }

  /** The word in section names (null for {@link #UNKNOWN}). */
  public String word() {
    return word;
  }

  /** Whether the section content is a compressed stream (see the class comment). */
  public boolean isCompressed() {
    return compressed;
  }

  /**
   * The kind spelled {@code word}, or {@link #UNKNOWN}. {@code function_body} never appears as a
   * word in names (bodies are named after their function), so it maps to {@link #UNKNOWN} here.
   */
  public static LtoSectionKind ofWord(String word) {
    return EnumLookup.byKey(values(), LtoSectionKind::word, word)
        .filter(k -> k != FUNCTION_BODY)
        .orElse(UNKNOWN);
  }
}
