package org.offlink.bridge.wrapper;

import org.offlink.bridge.image.GcnImage;
import org.offlink.bridge.image.NvptxImage;

/**
 * The host-side wrapper of an offload image, in the two forms mkoffload can produce: a relocatable
 * x86-64 ELF object written directly (no host compiler run), or the C text GCC 12's mkoffload
 * generates ({@code --wrapper=c}, compiled by the caller). Both register the image with libgomp
 * from a constructor ({@code GOMP_offload_register_ver}) and unregister it from a destructor, and
 * both lay the data out identically; the ELF form is position-independent (PIE, non-PIE and {@code
 * -shared} links, no text relocations) and references the hidden {@code __OFFLOAD_TABLE__}.
 */
public final class WrapperObjects {
  private WrapperObjects() {}

  /** The nvptx wrapper as an ELF64 x86-64 relocatable object (version 0x10001, device 5). */
  public static byte[] nvptxElf(NvptxImage image) {
    return NvptxWrapperElf.build(image);
  }

  /**
   * The gcn wrapper as an ELF64 x86-64 relocatable object (device 8; version and data layout of the
   * image's release: 0x10002, 0x20003, 0x30003).
   */
  public static byte[] gcnElf(GcnImage image) {
    return GcnWrapperElf.build(image);
  }

  /** The C file GCC 12's nvptx mkoffload would write for {@code image}. */
  public static String nvptxC(NvptxImage image) {
    return NvptxWrapperSource.generate(image);
  }

  /** The C file the image's release's gcn mkoffload would write for {@code image}. */
  public static String gcnC(GcnImage image) {
    return GcnWrapperSource.generate(image);
  }
}
