package org.offlink.streamer.write;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.offlink.streamer.elf.FieldRanges;

/**
 * One ELF64 relocation with addend ({@code Elf64_Rela}).
 *
 * <p>Byte layout (24 bytes, little-endian):
 *
 * <pre>
 * offset size field
 *   0     8   r_offset  offset of the patched bytes in the target section
 *   8     8   r_info    (symbol index &lt;&lt; 32) | relocation type
 *  16     8   r_addend  signed addend
 * </pre>
 *
 * @param offset r_offset
 * @param symbolIndex the symbol index (high half of r_info)
 * @param type the relocation type (low half of r_info), e.g. {@link X86_64Relocation#code()}
 * @param addend r_addend
 */
public record Elf64Rela(long offset, long symbolIndex, long type, long addend) {

  /** Size of one entry in bytes. */
  public static final int SIZE = 24;

  /** Checks field widths. */
  public Elf64Rela {
    FieldRanges.checkU64("r_offset", offset);
    FieldRanges.checkU32("symbol index", symbolIndex);
    FieldRanges.checkU32("relocation type", type);
  }

  /** Writes the 24 bytes at the buffer's position and advances it. */
  public void writeTo(ByteBuffer out) {
    ByteBuffer b = out.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(offset).putLong(symbolIndex << 32 | type).putLong(addend);
    out.position(out.position() + SIZE);
  }
}
