package org.offlink.streamer.inspect;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import org.offlink.streamer.MalformedObjectException;

/**
 * What an AMD GPU code object (HSACO) says about its GPU, from its ELF header.
 *
 * <pre>
 * offset size field
 * 0x00   4    7f 'E' 'L' 'F'
 * 0x08   1    EI_ABIVERSION  1 = code object v3, 2 = v4, 3 = v5
 * 0x12   2    e_machine      0xE0 = EM_AMDGPU
 * 0x30   4    e_flags        0xff EF_AMDGPU_MACH; v3: 0x100 xnack, 0x200 sram-ecc;
 *                            v4+: 0x300 xnack, 0xc00 sram-ecc (0 unsupported, 1 any, 2 off, 3 on)
 * </pre>
 *
 * @param flags {@code e_flags}
 * @param abiVersion {@code EI_ABIVERSION}
 * @param processor the GPU name ({@code fiji}, {@code gfx906}, ...) or {@code unknown(0x..)}
 * @param xnack the XNACK setting
 * @param sramEcc the SRAM-ECC setting
 */
public record HsacoTarget(
    long flags, int abiVersion, String processor, Feature xnack, Feature sramEcc) {
  private static final int EM_AMDGPU = 0xE0;
  private static final Map<Integer, String> MACH =
      Map.ofEntries(
          Map.entry(0x28, "gfx801"),
          Map.entry(0x29, "gfx802"),
          Map.entry(0x2a, "fiji"),
          Map.entry(0x2b, "gfx810"),
          Map.entry(0x2c, "gfx900"),
          Map.entry(0x2d, "gfx902"),
          Map.entry(0x2e, "gfx904"),
          Map.entry(0x2f, "gfx906"),
          Map.entry(0x30, "gfx908"),
          Map.entry(0x31, "gfx909"),
          Map.entry(0x32, "gfx90c"),
          Map.entry(0x3f, "gfx90a"));

  /** A target feature setting. */
  public enum Feature {
    /** The processor has no such feature (or the code object cannot say). */
    UNSUPPORTED,
    /** Code works with the feature on or off. */
    ANY,
    /** Compiled for the feature off. */
    OFF,
    /** Compiled for the feature on. */
    ON
  }

  /** Checks the fields. */
  public HsacoTarget {
    Objects.requireNonNull(processor, "processor");
    Objects.requireNonNull(xnack, "xnack");
    Objects.requireNonNull(sramEcc, "sramEcc");
  }

  /** Reads the header of {@code image}, named {@code file} in errors. */
  public static HsacoTarget of(byte[] image, Path file) throws MalformedObjectException {
    if (image.length < 64
        || image[0] != 0x7f
        || image[1] != 'E'
        || image[2] != 'L'
        || image[3] != 'F'
        || image[4] != 2) {
      throw new MalformedObjectException(
          file, -1, "expected a GCN code object (ELF64), found " + image.length + " other bytes");
    }
    ByteBuffer b = ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN);
    int machine = b.getShort(0x12) & 0xffff;
    if (machine != EM_AMDGPU) {
      throw new MalformedObjectException(
          file, -1, String.format("expected e_machine 0xe0 (AMDGPU), found 0x%x", machine));
    }
    return fromFlags(b.getInt(0x30) & 0xffffffffL, image[8] & 0xff);
  }

  /** Decodes {@code e_flags} for code object ABI version {@code abiVersion}. */
  public static HsacoTarget fromFlags(long flags, int abiVersion) {
    int mach = (int) (flags & 0xff);
    String name = MACH.getOrDefault(mach, String.format("unknown(0x%x)", mach));
    if (abiVersion <= 1) {
      Feature x = (flags & 0x100) != 0 ? Feature.ON : Feature.UNSUPPORTED;
      Feature s = (flags & 0x200) != 0 ? Feature.ON : Feature.UNSUPPORTED;
      return new HsacoTarget(flags, abiVersion, name, x, s);
    }
    Feature[] v4 = {Feature.UNSUPPORTED, Feature.ANY, Feature.OFF, Feature.ON};
    return new HsacoTarget(
        flags, abiVersion, name, v4[(int) ((flags >> 8) & 3)], v4[(int) ((flags >> 10) & 3)]);
  }
}
