package org.offlink.bridge.wrapper;

import java.util.List;
import org.offlink.bridge.image.GcnDataLayout;
import org.offlink.bridge.image.GcnImage;
import org.offlink.bridge.image.GcnKernel;

/**
 * The gcn wrapper object, laid out as GCC lays out the generated C of the image's release for
 * x86-64 LP64.
 *
 * <p>{@code .rodata}: {@code int gcn_num_vars}, (14+) {@code int gcn_num_ind_funcs}, then the
 * kernel name literals. {@code .data}: {@code gcn_code} (GCC declares it non-const). {@code
 * .data.rel.ro.local}:
 *
 * <pre>
 * gcn_kernels[n]  32 bytes each: 0 const char *name; 8 int oacc_dims[3]; 20 int sgpr_count;
 *                                24 int vgpr_count; 28 padding
 * gcn_image       16 bytes: 0 size_t size; 8 void *image
 * target_data     32 bytes: 0 gcn_image *; 8 unsigned kernel_count; 16 kernel_infos;
 *                           24 unsigned global_variable_count (4 padding after each unsigned)
 * gcn_data (13)   40 bytes: 0 uintptr_t omp_requires_mask, then target_data's fields
 * gcn_data (14+)  40 bytes: 0 mask; 8 gcn_image *; 16 kernel_count; 24 kernel_infos;
 *                           32 unsigned ind_func_count; 36 unsigned global_variable_count
 * </pre>
 */
final class GcnWrapperElf {
  /** {@code GOMP_DEVICE_GCN}. */
  static final int DEVICE = 8;

  private GcnWrapperElf() {}

  /** The size of {@code target_data} (12) or {@code gcn_data} (13+, with the mask). */
  static long dataSize(boolean requiresMask) {
    return requiresMask ? 40 : 32;
  }

  static byte[] build(GcnImage image) {
    GcnDataLayout layout = image.layout();
    DataBlock data = new DataBlock(".data", image.hsaco().length + 64);
    DataBlock rodata = new DataBlock(".rodata");
    DataBlock relro = new DataBlock(".data.rel.ro.local");
    rodata.beginObject("gcn_num_vars", 4, 4);
    rodata.putU32(image.globalVariableCount());
    if (layout.indirectFunctions()) {
      rodata.beginObject("gcn_num_ind_funcs", 4, 4);
      rodata.putU32(image.indirectFunctionCount());
    }

    List<GcnKernel> kernels = image.kernels();
    long kernelTable = relro.beginObject("gcn_kernels", 32L * kernels.size(), 8);
    for (GcnKernel k : kernels) {
      relro.putPointer(rodata, rodata.literal(k.name()));
      relro.putU32(k.dim0() & 0xffff_ffffL);
      relro.putU32(k.dim1() & 0xffff_ffffL);
      relro.putU32(k.dim2() & 0xffff_ffffL);
      relro.putU32(k.sgprCount() & 0xffff_ffffL);
      relro.putU32(k.vgprCount() & 0xffff_ffffL);
      relro.putU32(0);
    }
    long code = data.beginObject("gcn_code", image.hsaco().length, 1);
    data.putBytes(image.hsaco());
    long gcnImage = relro.beginObject("gcn_image", 16, 8);
    relro.putU64(image.hsaco().length);
    relro.putPointer(data, code);
    long targetData = relro.beginObject(layout.dataName(), dataSize(layout.requiresMask()), 8);
    if (layout.requiresMask()) {
      relro.putU64(image.requiresMask());
    }
    relro.putPointer(relro, gcnImage);
    relro.putU64(kernels.size());
    relro.putPointer(relro, kernelTable);
    if (layout.indirectFunctions()) {
      relro.putU32(image.indirectFunctionCount());
      relro.putU32(image.globalVariableCount());
    } else {
      relro.putU64(image.globalVariableCount());
    }
    return WrapperElfAssembler.assemble(
        List.of(data, rodata, relro), relro, targetData, layout.registerVersion(), DEVICE);
  }
}
