package org.offlink.bridge.wrapper;

import java.util.List;
import org.offlink.bridge.image.NvptxFunction;
import org.offlink.bridge.image.NvptxImage;

/**
 * The nvptx wrapper object, laid out as GCC lays out its generated C for x86-64 LP64.
 *
 * <p>{@code .rodata}: each {@code ptx_code_<k>} (chunk bytes + NUL; the linked chunks, then GCC
 * 13+'s table chunks), then the name literals. {@code .data.rel.ro.local}:
 *
 * <pre>
 * ptx_objs[n]          16 bytes each: 0 const char *code; 8 size_t size (= chunk length + 1)
 * var_mappings[n]       8 bytes each: const char *name
 * func_mappings[n]     16 bytes each: 0 const char *name; 8 unsigned short dim[3]; 14 padding
 * ind_func_mappings[n]  8 bytes each (14+; only its element count is referenced)
 * GCC 12 target_data   48 bytes: 0 ptx_objs; 8 unsigned ptx_num; 16 var_names; 24 unsigned var_num;
 *                                32 fn_names; 40 unsigned fn_num (4 padding after each unsigned)
 * 13+ nvptx_data       56 bytes: 0 uintptr_t omp_requires_mask; then GCC 12's fields at +8;
 *                                52 unsigned ind_fn_num (14+; padding in 13)
 * </pre>
 */
final class NvptxWrapperElf {
  /** {@code GOMP_DEVICE_NVIDIA_PTX}. */
  static final int DEVICE = 5;

  private NvptxWrapperElf() {}

  /** The size of {@code target_data} (12) or {@code nvptx_data} (13+, with the mask). */
  static long dataSize(boolean requiresMask) {
    return requiresMask ? 56 : 48;
  }

  static byte[] build(NvptxImage image) {
    List<byte[]> chunks = image.allChunks();
    NvptxImage.Layout layout = image.layout();
    long ptxBytes = 0;
    for (byte[] chunk : chunks) {
      ptxBytes += chunk.length + 32L; // NUL and alignment
    }
    DataBlock rodata =
        new DataBlock(".rodata", (int) Math.min(Integer.MAX_VALUE - 8, ptxBytes + 4096));
    DataBlock relro = new DataBlock(".data.rel.ro.local");
    long[] chunkOffsets = new long[chunks.size()];
    for (int k = 0; k < chunks.size(); k++) {
      byte[] chunk = chunks.get(k);
      chunkOffsets[k] = rodata.beginObject("ptx_code_" + k, chunk.length + 1L, 1);
      rodata.putBytes(chunk);
      rodata.putU8(0);
    }

    long ptxObjs = relro.beginObject("ptx_objs", 16L * chunks.size(), 8);
    for (int k = 0; k < chunks.size(); k++) {
      relro.putPointer(rodata, chunkOffsets[k]);
      relro.putU64(chunks.get(k).length + 1L);
    }
    long varMappings = relro.beginObject("var_mappings", 8L * image.variables().size(), 8);
    for (String name : image.variables()) {
      relro.putPointer(rodata, rodata.literal(name));
    }
    long funcMappings = relro.beginObject("func_mappings", 16L * image.functions().size(), 8);
    for (NvptxFunction fn : image.functions()) {
      relro.putPointer(rodata, rodata.literal(fn.name()));
      relro.putU16(fn.gang());
      relro.putU16(fn.worker());
      relro.putU16(fn.vector());
      relro.putU16(0);
    }
    if (layout.indirectFunctions()) {
      relro.beginObject("ind_func_mappings", 8L * image.indirectFunctions().size(), 8);
      for (String name : image.indirectFunctions()) {
        relro.putPointer(rodata, rodata.literal(name));
      }
    }
    long targetData = relro.beginObject(layout.dataName(), dataSize(layout.requiresMask()), 8);
    if (layout.requiresMask()) {
      relro.putU64(Integer.toUnsignedLong(image.requiresMask()));
    }
    relro.putPointer(relro, ptxObjs);
    relro.putU64(chunks.size());
    relro.putPointer(relro, varMappings);
    relro.putU64(image.variables().size());
    relro.putPointer(relro, funcMappings);
    if (layout.indirectFunctions()) {
      relro.putU32(image.functions().size());
      relro.putU32(image.indirectFunctions().size());
    } else {
      relro.putU64(image.functions().size());
    }
    return WrapperElfAssembler.assemble(
        List.of(rodata, relro), relro, targetData, layout.version(), DEVICE);
  }
}
