package org.offlink.bridge.wrapper;

import org.offlink.bridge.image.GcnDataLayout;
import org.offlink.bridge.image.GcnImage;
import org.offlink.bridge.image.GcnKernel;
import org.offlink.bridge.image.HsaXnack;

/**
 * The C file the gcn mkoffload of the image's release writes ({@code process_asm} and {@code
 * process_obj} in {@code config/gcn/mkoffload.cc}; delta §6.4, §6.6, Appendix A.4-A.6), character
 * for character: includes, {@code gcn_num_vars}, (14+) {@code gcn_num_ind_funcs}, {@code
 * gcn_kernels}, (13-15, with {@code -mstack-size}) the {@code configure_stack_size} constructor or
 * (16) {@code mkoffload_setup}, {@code gcn_code} as 17 {@code %3u,} bytes per line or (15+) an
 * {@code #embed}, {@code gcn_image}, the registration data and the registration code.
 */
final class GcnWrapperSource {
  private static final int BYTES_PER_LINE = 17;

  private GcnWrapperSource() {}

  static String generate(GcnImage image) {
    GcnDataLayout layout = image.layout();
    byte[] hsaco = image.hsaco();
    StringBuilder out = new StringBuilder(hsaco.length * 4 + 4096);
    out.append(layout.includes());
    if (layout.setupFunction()) {
      appendSetupIncludes(out, image);
    } else if (layout.embedsHsaco() && image.stackSize() != 0) {
      out.append("#include <stdlib.h>\n#include <stdbool.h>\n\n");
    }
    out.append("static const int gcn_num_vars = ").append(image.globalVariableCount());
    out.append(";\n\n");
    if (layout.indirectFunctions()) {
      out.append("static const int gcn_num_ind_funcs = ").append(image.indirectFunctionCount());
      out.append(";\n\n");
    }
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
    if (layout.setupFunction()) {
      appendSetup(out, image);
    } else if (image.stackSize() != 0) {
      out.append(
          "static __attribute__((constructor))\n"
              + "void configure_stack_size (void)\n"
              + "{\n"
              + "  const char *val = getenv (\"GCN_STACK_SIZE\");\n"
              + "  if (!val || val[0] == '\\0')\n"
              + "    setenv (\"GCN_STACK_SIZE\", \"");
      out.append(image.stackSize()).append("\", true);\n}\n\n");
    }
    appendCode(out, image);
    out.append("static const struct gcn_image {\n  ").append(layout.sizeType());
    out.append(" size;\n  void *image;\n} gcn_image = {\n  ");
    out.append(layout.embedsHsaco() ? "sizeof(gcn_code)" : Integer.toString(hsaco.length));
    out.append(",\n  gcn_code\n};\n\n");
    out.append("static const struct ").append(layout.structTag()).append(" {\n");
    if (layout.requiresMask()) {
      out.append("  ").append(layout.uintptrType()).append(" omp_requires_mask;\n");
    }
    out.append(
        "  const struct gcn_image *gcn_image;\n"
            + "  unsigned kernel_count;\n"
            + "  const struct hsa_kernel_description *kernel_infos;\n");
    if (layout.indirectFunctions()) {
      out.append("  unsigned ind_func_count;\n");
    }
    out.append("  unsigned global_variable_count;\n} ").append(layout.dataName()).append(" = {\n");
    if (layout.requiresMask()) {
      out.append("  ").append((int) image.requiresMask()).append(",\n");
    }
    out.append(
        "  &gcn_image,\n"
            + "  sizeof (gcn_kernels) / sizeof (gcn_kernels[0]),\n"
            + "  gcn_kernels,\n");
    if (layout.indirectFunctions()) {
      out.append("  gcn_num_ind_funcs,\n");
    }
    out.append("  gcn_num_vars\n};\n\n");
    WrapperSourceText.appendRegistration(
        out,
        layout.registerVersion(),
        GcnWrapperElf.DEVICE,
        "GCN",
        true,
        layout.dataName(),
        layout.setupFunction());
    return out.toString();
  }

  /** 16: the headers {@code mkoffload_setup}'s actions use. */
  private static void appendSetupIncludes(StringBuilder out, GcnImage image) {
    boolean checksXnack = image.hsaXnack() != HsaXnack.UNCHECKED;
    if (image.stackSize() != 0) {
      out.append("#include <stdbool.h>\n");
    }
    if (checksXnack) {
      out.append("#include <stdio.h>\n");
    }
    if (image.stackSize() != 0 || checksXnack) {
      out.append("#include <stdlib.h>\n\n");
    }
  }

  /**
   * 16's {@code mkoffload_setup}: the stack size passed on in {@code GCN_STACK_SIZE}, then {@code
   * HSA_XNACK} set where the user left it unset or empty, with a warning where it holds anything
   * but the image's mode.
   */
  private static void appendSetup(StringBuilder out, GcnImage image) {
    out.append("static void\nmkoffload_setup (void)\n{");
    if (image.stackSize() != 0) {
      out.append(
          "\n"
              + "  /* Pass through the -mstack-size compile-time option.  */\n"
              + "  const char *val = getenv (\"GCN_STACK_SIZE\");\n"
              + "  if (!val || val[0] == '\\0')\n"
              + "    setenv (\"GCN_STACK_SIZE\", \"");
      out.append(image.stackSize()).append("\", true);\n");
    }
    if (image.hsaXnack() != HsaXnack.UNCHECKED) {
      int value = image.hsaXnack().value();
      out.append(
          "\n"
              + "  const char *xn_var = getenv (\"HSA_XNACK\");\n"
              + "  if (!xn_var || xn_var[0] == '\\0')\n"
              + "    setenv (\"HSA_XNACK\", \"");
      out.append(value).append("\", true);\n  else if (xn_var[0] != '").append(value);
      out.append(
          "' || xn_var[1] != '\\0')\n"
              + "    fprintf (stderr, \"warning: HSA_XNACK=%s is incompatible; the GPU kernel"
              + " may revert to host fallback\\n\", xn_var);\n");
    }
    out.append("}\n\n");
  }

  /** {@code gcn_code}: 17 {@code %3u,} bytes per line, or (15) an {@code #embed} of the HSACO. */
  private static void appendCode(StringBuilder out, GcnImage image) {
    out.append("static unsigned char gcn_code[] = {");
    if (image.layout().embedsHsaco()) {
      out.append("\n#embed \"").append(image.hsacoName());
      out.append("\" if_empty (error_file_is_empty)\n};\n\n");
      return;
    }
    byte[] hsaco = image.hsaco();
    for (int i = 0; i < hsaco.length; i++) {
      if (i % BYTES_PER_LINE == 0) {
        out.append("\n\t");
      }
      int v = hsaco[i] & 0xff;
      out.append(v < 10 ? "  " : v < 100 ? " " : "").append(v).append(',');
    }
    out.append("\n};\n\n");
  }
}
