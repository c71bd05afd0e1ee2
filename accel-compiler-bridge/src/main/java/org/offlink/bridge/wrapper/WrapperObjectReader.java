package org.offlink.bridge.wrapper;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Optional;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.elf.ElfClass;
import org.offlink.streamer.elf.ElfData;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.elf.ElfSymbol;

/**
 * Reads back the image counts from a wrapper object that mkoffload wrote, ours or GCC 12's (both
 * lay out the generated C's {@code target_data} the same way; see {@link NvptxWrapperElf} and
 * {@link GcnWrapperElf}). The counts are plain integers in {@code target_data}, so no relocation
 * needs to be applied:
 *
 * <pre>
 * target   target_data offset  field
 * nvptx    24  u32             var_num
 *          40  u32             fn_num
 * gcn       8  u32             kernel_count (includes _init_array and _fini_array)
 *          24  u32             global_variable_count
 * </pre>
 *
 * An object without a local {@code target_data} (an empty ILP32 wrapper, a foreign mkoffload) gives
 * empty rather than an error: the caller then has nothing to check.
 */
public final class WrapperObjectReader {
  private WrapperObjectReader() {}

  /**
   * The counts recorded in {@code object}, or empty if it has no recognisable {@code target_data}.
   */
  public static Optional<ImageCounts> counts(Path object, OffloadTarget target) throws IOException {
    try (ElfFile elf = ElfReader.read(object)) {
      if (elf.header().elfClass() != ElfClass.ELF64 || elf.header().data() != ElfData.LSB) {
        return Optional.empty();
      }
      for (ElfSymbol sym : elf.symbols()) {
        if (sym.name().equals("target_data")
            && sym.sectionIndex() != ElfSymbol.SHN_UNDEF
            && sym.sectionIndex() < ElfSymbol.SHN_ABS) {
          return read(elf, elf.section(sym.sectionIndex()), sym, target);
        }
      }
      return Optional.empty();
    } catch (MalformedObjectException notElf) {
      return Optional.empty();
    }
  }

  private static Optional<ImageCounts> read(
      ElfFile elf, ElfSection section, ElfSymbol sym, OffloadTarget target) throws IOException {
    int size = target == OffloadTarget.NVPTX ? 48 : 32;
    if (!section.hasFileData() || sym.value() < 0 || sym.value() + size > section.size()) {
      return Optional.empty();
    }
    ByteBuffer data = ByteBuffer.wrap(elf.readSectionData(section)).order(ByteOrder.LITTLE_ENDIAN);
    int base = (int) sym.value();
    if (target == OffloadTarget.NVPTX) {
      return Optional.of(new ImageCounts(u32(data, base + 40), u32(data, base + 24)));
    }
    long kernels = u32(data, base + 8);
    // GCC 12's gcn mkoffload always lists _init_array and _fini_array first.
    return Optional.of(new ImageCounts(Math.max(0, kernels - 2), u32(data, base + 24)));
  }

  private static long u32(ByteBuffer data, int at) {
    return data.getInt(at) & 0xffff_ffffL;
  }
}
