package org.offlink.streamer.elf;

import java.util.Objects;

/**
 * One symbol table entry, with its name resolved and its section index resolved through {@code
 * SHT_SYMTAB_SHNDX} when {@code st_shndx} is {@code SHN_XINDEX}.
 *
 * <pre>
 * ELF32 (16 bytes)                    ELF64 (24 bytes)
 *  0  4  st_name                       0  4  st_name
 *  4  4  st_value                      4  1  st_info  (bind &lt;&lt; 4 | type)
 *  8  4  st_size                       5  1  st_other (visibility in the low 2 bits)
 * 12  1  st_info                       6  2  st_shndx
 * 13  1  st_other                      8  8  st_value
 * 14  2  st_shndx                     16  8  st_size
 * </pre>
 *
 * @param index position in its symbol table
 * @param name the resolved name ("" for none)
 * @param value {@code st_value}
 * @param size {@code st_size}
 * @param info {@code st_info}
 * @param other {@code st_other}
 * @param sectionIndex the defining section, or a reserved value (0 = undefined, 0xfff1 = ABS,
 *     0xfff2 = COMMON)
 */
public record ElfSymbol(
    int index, String name, long value, long size, int info, int other, int sectionIndex) {

  /** {@code st_shndx} of an undefined symbol. */
  public static final int SHN_UNDEF = 0;

  /** {@code st_shndx} of an absolute symbol. */
  public static final int SHN_ABS = 0xfff1;

  /** {@code st_shndx} of a common symbol. */
  public static final int SHN_COMMON = 0xfff2;

  /** Validates the fields. */
  public ElfSymbol {
    Objects.requireNonNull(name, "name");
    if (index < 0 || sectionIndex < 0 || (info & ~0xff) != 0 || (other & ~0xff) != 0) {
      throw new IllegalArgumentException("symbol " + index + ": field out of range");
    }
  }

  /** The binding (high four bits of {@code st_info}). */
  public SymbolBinding binding() {
    return SymbolBinding.fromRaw(info >>> 4);
  }

  /** The type (low four bits of {@code st_info}). */
  public SymbolType type() {
    return SymbolType.fromRaw(info & 0xf);
  }

  /** The visibility (low two bits of {@code st_other}). */
  public SymbolVisibility visibility() {
    return SymbolVisibility.fromOther(other);
  }
}
