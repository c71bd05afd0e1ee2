package org.offlink.streamer.write;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.offlink.streamer.elf.FieldRanges;
import org.offlink.streamer.elf.SymbolBinding;
import org.offlink.streamer.elf.SymbolType;
import org.offlink.streamer.elf.SymbolVisibility;

/**
 * One ELF64 symbol table entry ({@code Elf64_Sym}).
 *
 * <p>Byte layout (24 bytes, little-endian):
 *
 * <pre>
 * offset size field
 *   0     4   st_name   offset of the name in .strtab (0 = no name)
 *   4     1   st_info   (binding &lt;&lt; 4) | type
 *   5     1   st_other  visibility in the low 2 bits
 *   6     2   st_shndx  defining section index; 0 = SHN_UNDEF, 0xfff1 = SHN_ABS
 *   8     8   st_value  offset in the section (relocatable objects)
 *  16     8   st_size   object or function size
 * </pre>
 *
 * @param name st_name
 * @param binding the binding (high nibble of st_info)
 * @param type the type (low nibble of st_info)
 * @param visibility the visibility (st_other)
 * @param sectionIndex st_shndx
 * @param value st_value
 * @param size st_size
 */
public record Elf64Symbol(
    long name,
    SymbolBinding binding,
    SymbolType type,
    SymbolVisibility visibility,
    int sectionIndex,
    long value,
    long size) {

  /** Size of one entry in bytes. */
  public static final int SIZE = 24;

  /** {@code SHN_UNDEF}. */
  public static final int SHN_UNDEF = 0;

  /** {@code SHN_ABS}. */
  public static final int SHN_ABS = 0xfff1;

  /** Checks field widths. */
  public Elf64Symbol {
    FieldRanges.checkU32("st_name", name);
    if (binding == null || type == null || visibility == null) {
      throw new IllegalArgumentException("binding, type and visibility are required");
    }
    if (binding == SymbolBinding.UNKNOWN || type == SymbolType.UNKNOWN) {
      throw new IllegalArgumentException("a symbol needs a known binding and type");
    }
    FieldRanges.checkU16("st_shndx", sectionIndex);
    FieldRanges.checkU64("st_value", value);
    FieldRanges.checkU64("st_size", size);
  }

  /** The all-zero entry at index 0. */
  public static Elf64Symbol nullSymbol() {
    return new Elf64Symbol(
        0, SymbolBinding.LOCAL, SymbolType.NOTYPE, SymbolVisibility.DEFAULT, 0, 0, 0);
  }

  /** Writes the 24 bytes at the buffer's position and advances it. */
  public void writeTo(ByteBuffer out) {
    ByteBuffer b = out.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    b.putInt((int) name).put((byte) (binding.raw() << 4 | type.raw()));
    b.put((byte) visibility.raw()).putShort((short) sectionIndex).putLong(value).putLong(size);
    out.position(out.position() + SIZE);
  }
}
