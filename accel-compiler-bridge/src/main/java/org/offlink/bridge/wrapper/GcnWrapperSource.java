package org.offlink.bridge.wrapper;

import org.offlink.bridge.image.GcnImage;
import org.offlink.bridge.image.GcnKernel;

/**
 * The C file GCC 12's gcn mkoffload writes ({@code process_asm} and {@code process_obj} in {@code
 * config/gcn/mkoffload.cc}), character for character: includes, {@code gcn_num_vars}, {@code
 * gcn_kernels}, {@code gcn_code} as 17 {@code %3u,} bytes per line, {@code gcn_image}, {@code
 * target_data} and the registration code.
 */
final class GcnWrapperSource {
  private static final int BYTES_PER_LINE = 17;

  private GcnWrapperSource() {}

  static String generate(GcnImage image) {
    byte[] hsaco = image.hsaco();
    StringBuilder out = new StringBuilder(hsaco.length * 4 + 4096);
    out.append("#include <stdlib.h>\n#include <stdbool.h>\n\n");
    out.append("static const int gcn_num_vars = ").append(image.globalVariableCount());
    out.append(";\n\n");
    out.append(
        "static const struct hsa_kernel_description {\n"
            + "  const char *name;\n"
            + "  int oacc_dims[3];\n"
            + "  int sgpr_count;\n"
            + "  int vgpr_count;\n"
            + "} gcn_kernels[] = {\n");
    String sep = "";
    for (GcnKernel k : image.kernels()) {
      out.append(sep).append("  {\"").append(WrapperSourceText.quote(k.name())).append("\", {");
      out.append(k.dim0()).append(", ").append(k.dim1()).append(", ").append(k.dim2());
      out.append("}, ").append(k.sgprCount()).append(", ").append(k.vgprCount()).append('}');
      sep = ",\n";
    }
    out.append("\n};\n\n");
    out.append("static unsigned char gcn_code[] = {");
    for (int i = 0; i < hsaco.length; i++) {
      if (i % BYTES_PER_LINE == 0) {
        out.append("\n\t");
      }
      int v = hsaco[i] & 0xff;
      out.append(v < 10 ? "  " : v < 100 ? " " : "").append(v).append(',');
    }
    out.append("\n};\n\n");
    out.append(
        "static const struct gcn_image {\n  size_t size;\n  void *image;\n} gcn_image = {\n");
    out.append("  ").append(hsaco.length).append(",\n  gcn_code\n};\n\n");
    out.append(
        "static const struct gcn_image_desc {\n"
            + "  const struct gcn_image *gcn_image;\n"
            + "  unsigned kernel_count;\n"
            + "  const struct hsa_kernel_description *kernel_infos;\n"
            + "  unsigned global_variable_count;\n"
            + "} target_data = {\n"
            + "  &gcn_image,\n"
            + "  sizeof (gcn_kernels) / sizeof (gcn_kernels[0]),\n"
            + "  gcn_kernels,\n"
            + "  gcn_num_vars\n"
            + "};\n\n");
    WrapperSourceText.appendRegistration(
        out, GcnWrapperElf.VERSION, GcnWrapperElf.DEVICE, "GCN", true);
    return out.toString();
  }
}
