package org.offlink.bridge.gcn;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import org.offlink.streamer.MalformedObjectException;

/**
 * The fields of an HSACO's ELF64 header that say which GPU it is for.
 *
 * <pre>
 * offset size field
 * 0x00   4    magic 7f 'E' 'L' 'F'
 * 0x04   1    EI_CLASS      2 = ELF64
 * 0x05   1    EI_DATA       1 = little endian
 * 0x07   1    EI_OSABI      64 = AMDGPU_HSA
 * 0x08   1    EI_ABIVERSION 1 = code object v3, 2 = v4
 * 0x10   2    e_type        3 = ET_DYN
 * 0x12   2    e_machine     0xE0 = EM_AMDGPU
 * 0x30   4    e_flags       mach (0xff) | xnack (0x300) | sramecc (0xc00)
 * </pre>
 */
public record HsacoHeader(int osAbi, int abiVersion, int type, int machine, int flags) {
  /** ELF machine number of AMD GPUs. */
  public static final int EM_AMDGPU = 0xE0;

  /** Reads the header of {@code image} (named {@code file} in errors). */
  public static HsacoHeader read(byte[] image, Path file) throws MalformedObjectException {
    if (image.length < 64) {
      throw new MalformedObjectException(
          file, -1, "expected a 64-byte ELF64 header, found " + image.length + " bytes");
    }
    if (image[0] != 0x7f || image[1] != 'E' || image[2] != 'L' || image[3] != 'F') {
      throw new MalformedObjectException(file, 0, "expected ELF magic");
    }
    if (image[4] != 2 || image[5] != 1) {
      throw new MalformedObjectException(file, 4, "expected little-endian ELF64");
    }
    ByteBuffer b = ByteBuffer.wrap(image, 0, 64).order(ByteOrder.LITTLE_ENDIAN);
    return new HsacoHeader(
        image[7] & 0xff,
        image[8] & 0xff,
        b.getShort(0x10) & 0xffff,
        b.getShort(0x12) & 0xffff,
        b.getInt(0x30));
  }

  /** The {@code EF_AMDGPU_MACH} part of {@code e_flags}. */
  public int mach() {
    return flags & 0xff;
  }
}
