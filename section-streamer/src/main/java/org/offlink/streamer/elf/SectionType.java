package org.offlink.streamer.elf;

import org.offlink.runtime.EnumLookup;

/** A section type ({@code sh_type}); {@link #UNKNOWN} for values this model does not name. */
public enum SectionType {
  /** Inactive header (section 0). */
  NULL(0),
  /** Program-defined contents (code, data, LTO IR). */
  PROGBITS(1),
  /** Symbol table. */
  SYMTAB(2),
  /** String table. */
  STRTAB(3),
  /** Relocations with explicit addends. */
  RELA(4),
  /** Symbol hash table. */
  HASH(5),
  /** Dynamic linking information. */
  DYNAMIC(6),
  /** Notes. */
  NOTE(7),
  /** Occupies no file space ({@code .bss}). */
  NOBITS(8),
  /** Relocations without addends. */
  REL(9),
  /** Reserved. */
  SHLIB(10),
  /** Dynamic symbol table. */
  DYNSYM(11),
  /** Array of constructors. */
  INIT_ARRAY(14),
  /** Array of destructors. */
  FINI_ARRAY(15),
  /** Array of pre-constructors. */
  PREINIT_ARRAY(16),
  /** Section group (COMDAT). */
  GROUP(17),
  /** Extended section indices for a symbol table. */
  SYMTAB_SHNDX(18),
  /** GNU object attributes. */
  GNU_ATTRIBUTES(0x6ffffff5),
  /** GNU-style hash table. */
  GNU_HASH(0x6ffffff6),
  /** Prelink library list. */
  GNU_LIBLIST(0x6ffffff7),
  /** LLVM address-significance table. */
  LLVM_ADDRSIG(0x6fff4c03),
  /** Version definitions. */
  GNU_VERDEF(0x6ffffffd),
  /** Version requirements. */
  GNU_VERNEED(0x6ffffffe),
  /** Version symbol table. */
  GNU_VERSYM(0x6fffffff),
  /** x86-64 unwind tables. */
  X86_64_UNWIND(0x70000001),
  /** Any other value; the raw value stays in {@link ElfSection#rawType()}. */
  UNKNOWN(-1);

  private final int raw;

  SectionType(int raw) {
    this.raw = raw;
  }

  /** The {@code sh_type} value, -1 for {@link #UNKNOWN}. */
  public int raw() {
    return raw;
  }

  /** The type for an {@code sh_type} value. */
  public static SectionType fromRaw(int raw) {
    return EnumLookup.byCode(values(), SectionType::raw, raw).orElse(UNKNOWN);
  }
}
