package org.offlink.bridge.wrapper;

import java.util.List;
import org.offlink.bridge.image.NvptxFunction;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.bridge.image.PtxTableChunk;

/**
 * The C file GCC 12's nvptx mkoffload writes ({@code process} in {@code
 * config/nvptx/mkoffload.cc}), character for character: one string array per PTX chunk (each
 * source line a separate literal, {@code "} and {@code \} escaped), {@code ptx_objs}, {@code
 * var_mappings}, {@code func_mappings} (with the blank line after its {@code {}), {@code
 * target_data}, and the registration code.
 */
final class NvptxWrapperSource {
  private NvptxWrapperSource() {}

  static String generate(NvptxImage image) {
    if (image.disabled()) {
      return ""; // GCC 13+ truncates the C file (reverse offload on sm_30)
    }
    StringBuilder out = new StringBuilder();
    NvptxImage.Layout layout = image.layout();
    if (layout.requiresMask()) {
      out.append("#include <stdint.h>\n\n");
    }
    List<byte[]> chunks = image.allChunks();
    int linked = image.ptxChunks().size();
    for (int k = 0; k < linked; k++) {
      appendChunk(out, k, chunks.get(k));
    }
    for (int t = 0; t < image.tableChunks().size(); t++) {
      appendTable(out, linked + t, image.tableChunks().get(t));
    }
    out.append("static const struct ptx_obj {\n  const char *code;\n  __SIZE_TYPE__ size;\n");
    out.append("} ptx_objs[] = {");
    for (int k = 0; k < chunks.size(); k++) {
      out.append(k == 0 ? "" : ",").append("\n\t{ptx_code_").append(k);
      out.append(", sizeof (ptx_code_").append(k).append(")}");
    }
    out.append("\n};\n\n");
    out.append("static const char *const var_mappings[] = {");
    String comma = "";
    for (String v : image.variables()) {
      out.append(comma).append("\n\t\"").append(WrapperSourceText.quote(v)).append('"');
      comma = ",";
    }
    out.append("\n};\n\n");
    out.append("static const struct nvptx_fn {\n  const char *name;\n  unsigned short dim[3];\n");
    out.append("} func_mappings[] = {\n");
    comma = "";
    for (NvptxFunction f : image.functions()) {
      out.append(comma).append("\n\t{\"").append(WrapperSourceText.quote(f.name())).append('"');
      out.append(dims(f)).append('}');
      comma = ",";
    }
    out.append("\n};\n\n");
    if (layout.indirectFunctions()) {
      out.append("static const char *const ind_func_mappings[] = {");
      comma = "";
      for (String f : image.indirectFunctions()) {
        out.append(comma).append("\n\t\"").append(WrapperSourceText.quote(f)).append('"');
        comma = ",";
      }
      out.append("\n};\n\n");
    }
    if (layout.requiresMask()) {
      appendData(out, image);
    } else {
      appendGcc12Data(out);
    }
    WrapperSourceText.appendRegistration(
        out,
        layout.version(),
        NvptxWrapperElf.DEVICE,
        "NVIDIA_PTX",
        false,
        layout.dataName(),
        false);
    return out.toString();
  }

  /** GCC 13+'s {@code nvptx_data}: the mask first, 14+ {@code ind_fn_num} last. */
  private static void appendData(StringBuilder out, NvptxImage image) {
    boolean indirect = image.layout().indirectFunctions();
    out.append(
        "static const struct nvptx_data {\n"
            + "  uintptr_t omp_requires_mask;\n"
            + "  const struct ptx_obj *ptx_objs;\n"
            + "  unsigned ptx_num;\n"
            + "  const char *const *var_names;\n"
            + "  unsigned var_num;\n"
            + "  const struct nvptx_fn *fn_names;\n"
            + "  unsigned fn_num;\n");
    if (indirect) {
      out.append("  unsigned ind_fn_num;\n");
    }
    // GCC prints the mask with %d.
    out.append("} nvptx_data = {\n  ").append(image.requiresMask());
    out.append(
        ", ptx_objs, sizeof (ptx_objs) / sizeof (ptx_objs[0]),\n"
            + "  var_mappings,  sizeof (var_mappings) / sizeof (var_mappings[0]),\n"
            + "  func_mappings,  sizeof (func_mappings) / sizeof (func_mappings[0])");
    if (indirect) {
      out.append(",\n  sizeof (ind_func_mappings) / sizeof (ind_func_mappings[0])");
    }
    out.append("\n};\n\n");
  }

  private static void appendGcc12Data(StringBuilder out) {
    out.append(
        "static const struct nvptx_tdata {\n"
            + "  const struct ptx_obj *ptx_objs;\n"
            + "  unsigned ptx_num;\n"
            + "  const char *const *var_names;\n"
            + "  unsigned var_num;\n"
            + "  const struct nvptx_fn *fn_names;\n"
            + "  unsigned fn_num;\n"
            + "} target_data = {\n"
            + "  ptx_objs, sizeof (ptx_objs) / sizeof (ptx_objs[0]),\n"
            + "  var_mappings,  sizeof (var_mappings) / sizeof (var_mappings[0]),\n"
            + "  func_mappings,  sizeof (func_mappings) / sizeof (func_mappings[0])\n"
            + "};\n\n");
  }

  /** A GCC 13+ table chunk: one literal per line, as GCC prints them. */
  private static void appendTable(StringBuilder out, int k, PtxTableChunk table) {
    out.append("static const char ptx_code_").append(k).append("[] =");
    for (PtxTableChunk.Line line : table.lines()) {
      out.append('\n');
      if (line.blankBefore()) {
        out.append('\n');
      }
      out.append("\t".repeat(line.indent())).append('"').append(line.text()).append('"');
    }
    out.append(";\n\n");
  }

  /**
   * The FUNC_MAP dims as the accel compiler writes them ({@code , %#x} each). OpenMP functions have
   * none; the record cannot tell "none" from three zeros, and both initialise {@code dim} to 0.
   */
  private static String dims(NvptxFunction f) {
    if (f.gang() == 0 && f.worker() == 0 && f.vector() == 0) {
      return "";
    }
    return String.format(", %#x, %#x, %#x", f.gang(), f.worker(), f.vector());
  }

  private static void appendChunk(StringBuilder out, int k, byte[] chunk) {
    out.append("static const char ptx_code_").append(k).append("[] =\n\t\"");
    for (byte b : chunk) {
      char c = (char) (b & 0xff);
      switch (c) {
        case '\n' -> out.append("\\n\"\n\t\"");
        case '"', '\\' -> out.append('\\').append(c);
        // GCC drops CRs while copying; the image has none, but keep the value exact if one is left.
        case '\r' -> out.append("\\r");
        default -> out.append(c);
      }
    }
    out.append("\";\n\n");
  }
}
