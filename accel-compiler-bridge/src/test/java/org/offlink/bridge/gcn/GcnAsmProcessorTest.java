package org.offlink.bridge.gcn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.offlink.bridge.image.GcnKernel;
import org.offlink.streamer.MalformedObjectException;

class GcnAsmProcessorTest {
  private static final String ASM =
      "\t.text\n"
          + "        .amdgpu_metadata\n"
          + "        amdhsa.kernels:\n"
          + "          - .name: main._omp_fn.0\n"
          + "            .sgpr_count: 62\n"
          + "            .vgpr_count: 24\n"
          + "        .end_amdgpu_metadata\n"
          + "\t.text\n"
          + "\t;; OPENACC-DIMS: 32, 1, 1 : main._omp_fn.0\n"
          + "\t.section\t.gnu.offload_vars,\"aw\"\n"
          + "\t.align\t8\n"
          + ".offload_var_table.1:\n"
          + "\t.8byte\tg\n"
          + "\t.8byte\t256\n"
          + "\t.section\t.gnu.offload_funcs,\"aw\"\n"
          + "\t.align\t8\n"
          + ".offload_func_table.0:\n"
          + "\t.8byte\tmain._omp_fn.1\n"
          + "\t.8byte\tmain._omp_fn.0\n"
          + "\t.section\t.debug_frame,\"\",@progbits\n"
          + "\t.ident\t\"GCC: (GNU) 12.2.0\"\n";

  /** The .2.s up to the end of the variable table: its section line, label and the entries. */
  private static final String VARS_OUT =
      ASM.substring(0, ASM.indexOf("\t.section\t.gnu.offload_vars"))
          + "\t.section\t.gnu.offload_vars,\"aw\"\n"
          + "\t.global .offload_var_table\n"
          + "\t.type .offload_var_table, @object\n"
          + ".offload_var_table:\n"
          + "\t.section\t.gnu.offload_vars,\"aw\"\n"
          + "\t.align\t8\n"
          + ".offload_var_table.1:\n"
          + "\t.8byte\tg\n"
          + "\t.8byte\t256\n";

  @Test
  void kernelsVarsAndFilteredAssembly() throws Exception {
    GcnAsmProcessor.Result r = GcnAsmProcessor.process(ASM);
    assertEquals(
        List.of(
            new GcnKernel("_init_array", 0, 0, 0, 0, 0),
            new GcnKernel("_fini_array", 0, 0, 0, 0, 0),
            new GcnKernel("main._omp_fn.1", 0, 0, 0, 0, 0),
            new GcnKernel("main._omp_fn.0", 32, 1, 1, 62, 24)),
        r.kernels());
    assertEquals(1, r.variableCount());
    String expected =
        VARS_OUT
            + "\t.section\t.debug_frame,\"\",@progbits\n"
            + "\t.ident\t\"GCC: (GNU) 12.2.0\"\n";
    assertEquals(expected, new String(r.assembly(), StandardCharsets.ISO_8859_1));
  }

  private static final String IND_FUNCS =
      "\t.section\t.gnu.offload_ind_funcs,\"aw\"\n"
          + "\t.align\t8\n"
          + "\t.type\t.offload_ind_func_table.2, @object\n"
          + "\t.size\t.offload_ind_func_table.2, 8\n"
          + ".offload_ind_func_table.2:\n"
          + "\t.8byte\ttwice\n";

  /** The .2.s of 14/15 (delta §6.4): both function tables kept behind global labels. */
  @Test
  void gcc14KeepsFunctionTablesAndCountsIndirectFunctions() throws Exception {
    String asm = ASM.replace("\t.section\t.debug_frame", IND_FUNCS + "\t.section\t.debug_frame");
    GcnAsmProcessor.Result r = GcnAsmProcessor.process(GcnRelease.GCC14, asm);
    assertEquals(1, r.indirectFunctionCount());
    assertEquals(4, r.kernels().size());
    String expected =
        VARS_OUT
            + "\t.section\t.gnu.offload_funcs,\"aw\"\n"
            + "\t.global .offload_func_table\n"
            + "\t.type .offload_func_table, @object\n"
            + ".offload_func_table:\n"
            + "\t.8byte\tmain._omp_fn.1\n"
            + "\t.8byte\tmain._omp_fn.0\n"
            + "\t.section\t.gnu.offload_ind_funcs,\"aw\"\n"
            + "\t.global .offload_ind_func_table\n"
            + "\t.type .offload_ind_func_table, @object\n"
            + ".offload_ind_func_table:\n"
            + "\t.8byte\ttwice\n"
            + "\t.section\t.debug_frame,\"\",@progbits\n"
            + "\t.ident\t\"GCC: (GNU) 12.2.0\"\n";
    assertEquals(expected, new String(r.assembly(), StandardCharsets.ISO_8859_1));
  }

  /** 13 keeps the function table but treats an indirect-function section as code (§A.7). */
  @Test
  void gcc13EchoesAnIndirectFunctionSectionUncounted() throws Exception {
    String asm = ASM.replace("\t.section\t.debug_frame", IND_FUNCS + "\t.section\t.debug_frame");
    GcnAsmProcessor.Result r = GcnAsmProcessor.process(GcnRelease.GCC13, asm);
    assertEquals(0, r.indirectFunctionCount());
    String out = new String(r.assembly(), StandardCharsets.ISO_8859_1);
    assertTrue(out.contains(IND_FUNCS), out);
    assertTrue(out.contains(".offload_func_table:\n\t.8byte\tmain._omp_fn.1\n"), out);
    assertTrue(!out.contains(".offload_func_table.0:"), out);
  }

  @Test
  void metadataWithoutCountsIsAnError() {
    String asm = "  .amdgpu_metadata\n  - .name: k\n  .end_amdgpu_metadata\n";
    MalformedObjectException e =
        assertThrows(MalformedObjectException.class, () -> GcnAsmProcessor.process(asm));
    assertTrue(e.getMessage().contains(".sgpr_count"), e.getMessage());
  }

  @Test
  void variableWithoutSizeIsAnError() {
    String asm = "\t.section\t.gnu.offload_vars,\"aw\"\n\t.8byte\tg\n\t.align 8\n";
    assertThrows(MalformedObjectException.class, () -> GcnAsmProcessor.process(asm));
  }

  @Test
  void longLinesAreReadInFgetsPieces() {
    String line = "x".repeat(2500) + "\n";
    List<String> pieces = GcnAsmProcessor.pieces(line);
    assertEquals(List.of(999, 999, 503), pieces.stream().map(String::length).toList());
  }

  @Test
  void scanfSemantics() {
    assertEquals(
        4,
        Scanf.count("\t;; OPENACC-DIMS: 1, -2, 3 : f\n", " ;; OPENACC-DIMS: %d, %d, %d : %ms\n"));
    assertEquals(-1, Scanf.count("\n", " .8byte %ms\n"));
    assertEquals(0, Scanf.count("\t.align 8\n", " .8byte %ms\n"));
    assertEquals(
        1, Scanf.count("\t.section\t.gnu.offload_vars,\"aw\"\n", " .section .gnu.offload_vars%c"));
    assertEquals(-1, Scanf.count(" .text", " .text%c"));
  }
}
