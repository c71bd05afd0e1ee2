package org.offlink.bridge.nvptx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.offlink.bridge.gcc.GccRelease;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.bridge.wrapper.WrapperObjects;
import org.offlink.streamer.MalformedObjectException;

/**
 * GCC 13-15's nvptx image: the table chunks, the requires mask, indirect functions and the C file,
 * against the real generated C files of delta Appendix A (Debian's 13.3.0-16 and 14.2.0-19
 * mkoffload run on the same PTX).
 */
class NvptxVersionedImageTest {
  private static final Path PTX = Path.of("x.mkoffload");

  /** The two chunks of delta A.1 with its map lines (14+: plus IND_FUNC_MAP "foo"). */
  static String ptx(String target, boolean indirect) {
    return preamble(target)
        + "// BEGIN GLOBAL FUNCTION DECL: foo\n"
        + (indirect ? "//:IND_FUNC_MAP \"foo\"\n" : "")
        + ".visible .func (.param .u32 %value_out) foo (.param .u32 %in_ar0);\n"
        + "\n"
        + "// BEGIN GLOBAL FUNCTION DECL: main$_omp_fn$1$nohost\n"
        + ".visible .func main$_omp_fn$1$nohost (.param .u64 %in_ar0);\n"
        + "\n"
        + "// BEGIN GLOBAL FUNCTION DECL: main$_omp_fn$0\n"
        + ".visible .entry main$_omp_fn$0 (.param .u64 %in_ar0);\n"
        + "\n"
        + "// BEGIN GLOBAL VAR DEF: gvar\n"
        + "//:VAR_MAP \"gvar\"\n"
        + ".visible .global .align 4 .u32 gvar[4];\n"
        + "\n"
        + "// BEGIN GLOBAL FUNCTION DEF: main$_omp_fn$0\n"
        + "//:FUNC_MAP \"main$_omp_fn$0\"\n"
        + "//:FUNC_MAP \"main$_omp_fn$1$nohost\", 0x20, 0x1, 0x40\n"
        + ".visible .entry main$_omp_fn$0 (.param .u64 %in_ar0)\n"
        + "{\n"
        + "\tret;\n"
        + "}\n"
        + "\0"
        + preamble(target)
        + "// BEGIN GLOBAL FUNCTION DEF: GOMP_dummy\n"
        + ".visible .func GOMP_dummy\n"
        + "{\n"
        + "\tret;\n"
        + "}\n"
        + "\0";
  }

  /** GCC's PTX preamble for {@code target}, followed by a blank line. */
  private static String preamble(String target) {
    return "// BEGIN PREAMBLE\n.version 6.0\n.target "
        + target
        + "\n.address_size 64\n// END PREAMBLE\n\n";
  }

  private static NvptxImage image(int major, String target, boolean indirect, int mask)
      throws IOException {
    byte[] bytes = ptx(target, indirect).getBytes(StandardCharsets.ISO_8859_1);
    return NvptxImageBuilder.withTables(GccRelease.of(major), bytes, PTX, mask);
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = NvptxVersionedImageTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void gcc13MaskZeroIsTheRealGeneratedFile() throws Exception {
    NvptxImage image = image(13, "sm_30", false, 0);
    assertEquals(0x20001, image.layout().version());
    assertEquals(List.of(), image.tableChunks());
    assertEquals(resource("gcc13-mask0.c"), WrapperObjects.nvptxC(image));
  }

  /** Delta A.2: the reverse-offload chunk GCC 13 writes for mask 0x280 and sm_35. */
  static final String REVERSE_CHUNK =
      "static const char ptx_code_2[] =\n"
          + "\t\".version 6.0\"\n"
          + "\t\".target sm_35\"\n"
          + "\t\".file 1 \\\"<dummy>\\\"\"\n"
          + "\n"
          + "\t\".func __dummy$func ( );\"\n"
          + "\t\".func __dummy$func ( )\"\n"
          + "\t\"{\"\n"
          + "\t\"}\"\n"
          + "\t\".extern .func main$_omp_fn$1$nohost (.param .u64 %in_ar0);\"\n"
          + "\t\".visible .global .align 8 .u64 $offload_func_table[] = {\"\n"
          + "\t\t\"0,\"\n"
          + "\t\t\"main$_omp_fn$1$nohost};\\n\";\n"
          + "\n"
          + "static const struct ptx_obj {";

  @Test
  void gcc13ReverseOffloadAddsTheFunctionTableChunkAndTheMask() throws Exception {
    NvptxImage image = image(13, "sm_35", false, 0x280);
    String c = WrapperObjects.nvptxC(image);
    assertTrue(c.contains(REVERSE_CHUNK), c);
    assertTrue(c.contains("\t{ptx_code_2, sizeof (ptx_code_2)}\n};"), c);
    assertTrue(c.contains("} nvptx_data = {\n  640, ptx_objs,"), c);
    assertFalse(c.contains("ind_func"), c);
    // What libgomp gets: the C literals concatenated, no newline between directives.
    assertEquals(
        ".version 6.0.target sm_35.file 1 \"<dummy>\".func __dummy$func ( );"
            + ".func __dummy$func ( ){}.extern .func main$_omp_fn$1$nohost (.param .u64 %in_ar0);"
            + ".visible .global .align 8 .u64 $offload_func_table[] = {0,main$_omp_fn$1$nohost};\n",
        new String(image.allChunks().get(2), StandardCharsets.ISO_8859_1));
  }

  @Test
  void gcc14AddsTheIndirectChunkTheirNamesAndCount() throws Exception {
    NvptxImage image = image(14, "sm_35", true, 0x280);
    assertEquals(0x30001, image.layout().version());
    assertEquals(List.of("foo"), image.indirectFunctions());
    String c = WrapperObjects.nvptxC(image);
    assertTrue(c.contains(REVERSE_CHUNK.replace("static const struct ptx_obj {", "")), c);
    assertTrue(
        c.contains(
            "static const char ptx_code_3[] =\n"
                + "\t\".version 6.0\"\n"
                + "\t\".target sm_35\"\n"
                + "\t\".file 2 \\\"<dummy>\\\"\"\n"
                + "\n"
                + "\t\".func __dummy$func2 ( );\"\n"
                + "\t\".func __dummy$func2 ( )\"\n"
                + "\t\"{\"\n"
                + "\t\"}\"\n"
                + "\t\".extern .func (.param .u32 %value_out) foo (.param .u32 %in_ar0);\"\n"
                + "\t\".visible .global .align 8 .u64 $offload_ind_func_table[] = {\"\n"
                + "\t\t\"foo};\\n\";\n\n"),
        c);
    assertTrue(c.contains("static const char *const ind_func_mappings[] = {\n\t\"foo\"\n};"), c);
    assertTrue(
        c.contains(
            "  unsigned fn_num;\n  unsigned ind_fn_num;\n} nvptx_data = {\n  640, ptx_objs,"),
        c);
    assertTrue(
        c.contains(
            "  func_mappings,  sizeof (func_mappings) / sizeof (func_mappings[0]),\n"
                + "  sizeof (ind_func_mappings) / sizeof (ind_func_mappings[0])\n};"),
        c);
    assertTrue(c.contains("GOMP_offload_register_ver (0x30001, __OFFLOAD_TABLE__,"), c);
  }

  @Test
  void gcc14WithoutIndirectFunctionsStillHasTheEmptyArray() throws Exception {
    String c = WrapperObjects.nvptxC(image(14, "sm_30", false, 0));
    assertTrue(c.contains("static const char *const ind_func_mappings[] = {\n};\n\n"), c);
  }

  @Test
  void reverseOffloadOnSm30DropsTheImage() throws Exception {
    NvptxImage image = image(13, "sm_30", false, 0x280);
    assertTrue(image.disabled());
    assertEquals("", WrapperObjects.nvptxC(image));
  }

  @Test
  void gcc13RejectsIndirectMapsAsItsMkoffloadAborts() {
    MalformedObjectException e =
        assertThrows(MalformedObjectException.class, () -> image(13, "sm_35", true, 0));
    assertTrue(e.getMessage().contains("unknown mapping directive"), e.getMessage());
  }

  @Test
  void missingNohostDeclarationIsGccsFatalError() {
    String ptx =
        "// P\n.version 6.0\n.target sm_35\n//:FUNC_MAP \"f$nohost\"\n.visible .entry f$nohost;\n\0";
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                NvptxImageBuilder.withTables(
                    GccRelease.of(14), ptx.getBytes(StandardCharsets.ISO_8859_1), PTX, 0x80));
    assertEquals("Cannot find function declaration for 'f$nohost'", e.getMessage());
  }
}
