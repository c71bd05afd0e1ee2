package org.offlink.streamer.inspect;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.elf.ElfSymbol;
import org.offlink.streamer.elf.SymbolType;

/**
 * Finds and decodes the device images a linked program registers. GCC 12's generated wrapper C and
 * offlink's ELF wrapper both define a local object {@code target_data}; its size tells the target:
 * 48 bytes {@link NvptxTargetData}, 32 bytes {@link GcnTargetData}. GCC 13+ name it {@code
 * nvptx_data} (56 bytes) / {@code gcn_data} (40 bytes) and the registration version picks the
 * {@link TargetDataLayout}. Pointers are resolved through {@link ImageMemory}, so PIE, non-PIE and
 * shared objects decode alike. Images are returned in address order.
 */
public final class TargetDataReader {
  /** More entries than any real table; guards against garbage counts. */
  private static final long MAX_ENTRIES = 1 << 20;

  private static final String NVPTX_DATA = TargetDataLayout.GCC13.symbol("nvptx");
  private static final String GCN_DATA = TargetDataLayout.GCC13.symbol("gcn");
  private static final int NVPTX_DATA_SIZE = NvptxTargetData.SIZE + 8;
  private static final int GCN_DATA_SIZE = GcnTargetData.SIZE + 8;

  private TargetDataReader() {}

  /** All registered images of the image behind {@code memory}. */
  public static List<RegisteredImage> read(ImageMemory memory, SymbolIndex symbols)
      throws IOException {
    Set<Long> seen = new LinkedHashSet<>();
    List<ElfSymbol> candidates = new ArrayList<>();
    for (String name : List.of("target_data", NVPTX_DATA, GCN_DATA)) {
      for (ElfSymbol s : symbols.named(name)) {
        if (s.type() == SymbolType.OBJECT && seen.add(s.value())) {
          candidates.add(s);
        }
      }
    }
    candidates.sort((a, b) -> Long.compareUnsigned(a.value(), b.value()));
    List<RegisteredImage> out = new ArrayList<>();
    for (ElfSymbol s : candidates) {
      OptionalInt version = RegistrationCallScanner.version(memory, symbols, s.value());
      if (s.name().equals(NVPTX_DATA) && s.size() == NVPTX_DATA_SIZE) {
        out.add(nvptx(memory, s.value(), version, TargetDataLayout.ofNamedData(version)));
      } else if (s.name().equals(GCN_DATA) && s.size() == GCN_DATA_SIZE) {
        out.add(gcn(memory, s.value(), version, TargetDataLayout.ofNamedData(version)));
      } else if (s.size() == NvptxTargetData.SIZE) {
        out.add(nvptx(memory, s.value(), version));
      } else if (s.size() == GcnTargetData.SIZE) {
        out.add(gcn(memory, s.value(), version));
      }
    }
    return out;
  }

  /** Decodes a GCC 12 {@code struct nvptx_tdata} at {@code at}. */
  public static NvptxTargetData nvptx(ImageMemory m, long at, OptionalInt version)
      throws IOException {
    return nvptx(m, at, version, TargetDataLayout.GCC12);
  }

  /** Decodes a GCC 12 {@code struct gcn_image_desc} at {@code at}. */
  public static GcnTargetData gcn(ImageMemory m, long at, OptionalInt version) throws IOException {
    return gcn(m, at, version, TargetDataLayout.GCC12);
  }

  private static OptionalLong requiresMask(ImageMemory m, long at, TargetDataLayout layout)
      throws IOException {
    return layout.hasRequiresMask() ? OptionalLong.of(m.u64(at)) : OptionalLong.empty();
  }

  private static OptionalInt indirect(ImageMemory m, long at, TargetDataLayout layout)
      throws IOException {
    return layout.hasIndirectFunctions() ? OptionalInt.of((int) count(m, at)) : OptionalInt.empty();
  }

  /** Decodes the nvptx data of {@code layout} at {@code data}. */
  public static NvptxTargetData nvptx(
      ImageMemory m, long data, OptionalInt version, TargetDataLayout layout) throws IOException {
    long at = data + layout.headerSize();
    long objs = m.pointer(at);
    long ptxNum = count(m, at + 8);
    List<PtxChunk> chunks = new ArrayList<>();
    long total = 0;
    for (int i = 0; i < ptxNum; i++) {
      long code = m.pointer(objs + 16L * i);
      long size = m.u64(objs + 16L * i + 8);
      total += Math.max(0, size);
      if (size < 0 || total > m.fileSize()) {
        // Entries may all point at one big chunk: bound the sum, not just each, by the file.
        throw new MalformedObjectException(
            m.path(),
            -1,
            String.format(
                "target_data at 0x%x: expected PTX chunks of at most the file's %d bytes in all,"
                    + " found %d chunks claiming more",
                at, m.fileSize(), i + 1));
      }
      chunks.add(new PtxChunk(i, m.read(code, size)));
    }
    long varNames = m.pointer(at + 16);
    long varNum = count(m, at + 24);
    List<String> vars = new ArrayList<>();
    for (int i = 0; i < varNum; i++) {
      vars.add(m.cString(m.pointer(varNames + 8L * i)));
    }
    long fns = m.pointer(at + 32);
    long fnNum = count(m, at + 40);
    List<NvptxFunctionEntry> functions = new ArrayList<>();
    for (int i = 0; i < fnNum; i++) {
      long e = fns + 16L * i;
      functions.add(
          new NvptxFunctionEntry(
              m.cString(m.pointer(e)), List.of(m.u16(e + 8), m.u16(e + 10), m.u16(e + 12))));
    }
    LayoutFields fields =
        new LayoutFields(layout, requiresMask(m, data, layout), indirect(m, at + 44, layout));
    return new NvptxTargetData(data, version, chunks, vars, functions, fields);
  }

  /** Decodes the gcn data of {@code layout} at {@code data}. */
  public static GcnTargetData gcn(
      ImageMemory m, long data, OptionalInt version, TargetDataLayout layout) throws IOException {
    long at = data + layout.headerSize();
    long imageDesc = m.pointer(at);
    long size = m.u64(imageDesc);
    byte[] image = m.read(m.pointer(imageDesc + 8), size);
    long kernelCount = count(m, at + 8);
    long infos = m.pointer(at + 16);
    List<GcnKernelEntry> kernels = new ArrayList<>();
    for (int i = 0; i < kernelCount; i++) {
      long e = infos + 32L * i;
      kernels.add(
          new GcnKernelEntry(
              m.cString(m.pointer(e)),
              List.of(m.s32(e + 8), m.s32(e + 12), m.s32(e + 16)),
              m.s32(e + 20),
              m.s32(e + 24)));
    }
    LayoutFields fields =
        new LayoutFields(layout, requiresMask(m, data, layout), indirect(m, at + 24, layout));
    long variables = m.u32(at + (layout.hasIndirectFunctions() ? 28 : 24));
    return new GcnTargetData(data, version, image, kernels, variables, fields);
  }

  private static long count(ImageMemory m, long at) throws IOException {
    long n = m.u32(at);
    if (n > MAX_ENTRIES) {
      throw new MalformedObjectException(
          m.path(),
          -1,
          String.format("target_data at 0x%x: expected a table count, found %d", at, n));
    }
    return n;
  }
}
