package org.offlink.bridge.wrapper;

import java.util.List;
import org.offlink.bridge.image.NvptxFunction;
import org.offlink.bridge.image.NvptxImage;

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
    StringBuilder out = new StringBuilder();
    List<byte[]> chunks = image.ptxChunks();
    for (int k = 0; k < chunks.size(); k++) {
      appendChunk(out, k, chunks.get(k));
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
    WrapperSourceText.appendRegistration(
        out, NvptxWrapperElf.VERSION, NvptxWrapperElf.DEVICE, "NVIDIA_PTX", false);
    return out.toString();
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
