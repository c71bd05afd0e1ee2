package org.offlink.streamer.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.streamer.testing.Toolchain;

/**
 * Decodes the registration data of GCC 13 and GCC 14/15 wrappers. The fixtures are shared libraries
 * built here from C that has the shape of those mkoffloads' generated files (gcc13-15-delta.md,
 * Appendix A): {@code nvptx_data}/{@code gcn_data} with the requires mask first, the register call
 * with version 0x2000x/0x3000x, and for 14 the indirect-function counts and host table.
 */
class NewerLayoutInspectionTest {
  @TempDir Path dir;

  private static final String COMMON =
      """
      #include <stdint.h>
      extern void GOMP_offload_register_ver (unsigned, const void *, int, const void *);
      extern const void *const __OFFLOAD_TABLE__[];
      void f0 (void) {}
      void f1 (void) {}
      void ind0 (void) {}
      int hvar[4];
      __attribute__((used, section(".gnu.offload_funcs"))) void (*const funcs[])(void) = {f0, f1};
      __attribute__((used, section(".gnu.offload_vars"))) const void *const vars[] = {
        hvar, (const void *) sizeof hvar};
      """;

  private static final String NVPTX =
      """
      static const char ptx_code_0[] = ".version 3.1\\n.target sm_30\\n";
      static const struct ptx_obj { const char *code; __SIZE_TYPE__ size; } ptx_objs[] = {
        {ptx_code_0, sizeof (ptx_code_0)}};
      static const char *const var_mappings[] = {"hvar"};
      static const struct nvptx_fn { const char *name; unsigned short dim[3]; } func_mappings[] = {
        {"f0"}, {"f1", 0x20, 0x1, 0x40}};
      static const struct nvptx_data {
        uintptr_t omp_requires_mask;
        const struct ptx_obj *ptx_objs; unsigned ptx_num;
        const char *const *var_names; unsigned var_num;
        const struct nvptx_fn *fn_names; unsigned fn_num;
        %s
      } nvptx_data = { %s, ptx_objs, 1, var_mappings, 1, func_mappings, 2 %s };
      static __attribute__((constructor)) void init (void)
      {
        GOMP_offload_register_ver (%s, __OFFLOAD_TABLE__, 5, &nvptx_data);
      }
      """;

  private static final String GCN =
      """
      static unsigned char hsaco[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 64};
      static const struct gcn_image { __SIZE_TYPE__ size; void *image; } gcn_image = {
        sizeof hsaco, hsaco};
      static const struct hsa_kernel_description {
        const char *name; int oacc_dims[3]; int sgpr_count; int vgpr_count;
      } gcn_kernels[] = {{"f0", {0, 0, 0}, 10, 20}, {"f1", {32, 1, 64}, 11, 21}};
      static const struct gcn_data {
        uintptr_t omp_requires_mask;
        const struct gcn_image *gcn_image;
        unsigned kernel_count;
        const struct hsa_kernel_description *kernel_infos;
        %s
      } gcn_data = { %s, &gcn_image, 2, gcn_kernels, %s };
      static __attribute__((constructor)) void init (void)
      {
        GOMP_offload_register_ver (%s, __OFFLOAD_TABLE__, 8, &gcn_data);
      }
      """;

  private InspectedObject build(String source, String name) throws Exception {
    Toolchain.write(dir, name + ".c", COMMON + source);
    Toolchain.stdout(dir, "gcc-12", "-O2", "-shared", "-fPIC", name + ".c", "-o", name + ".so");
    List<InspectedObject> all = BinaryInspector.inspect(dir.resolve(name + ".so"));
    assertEquals(1, all.size());
    return all.get(0);
  }

  private static RegisteredImage onlyImage(InspectedObject o) {
    assertEquals(1, o.images().size(), o.images().toString());
    return o.images().get(0);
  }

  @Test
  void gcc13NvptxHasTheRequiresMaskAndNoIndirectFunctions() throws Exception {
    InspectedObject o = build(String.format(NVPTX, "", "640", "", "0x20001"), "nv13");
    NvptxTargetData n = assertInstanceOf(NvptxTargetData.class, onlyImage(o));
    assertEquals(OptionalInt.of(0x20001), n.version());
    assertEquals(
        new LayoutFields(TargetDataLayout.GCC13, OptionalLong.of(0x280), OptionalInt.empty()),
        n.fields());
    assertEquals(List.of("hvar"), n.variables());
    assertEquals(List.of("f0", "f1"), n.functions().stream().map(f -> f.name()).toList());
    assertEquals(List.of(32, 1, 64), n.functions().get(1).dims());
    assertEquals(1, n.chunks().size());
    assertEquals(
        ".target sm_30\n".length() + ".version 3.1\n".length() + 1, n.chunks().get(0).size());
  }

  @Test
  void gcc14NvptxCountsIndirectFunctionsAndReadsTheSixPointerHostTable() throws Exception {
    String source =
        String.format(NVPTX, "unsigned ind_fn_num;", "512", ", 3", "0x30001")
            + "__attribute__((used, section(\".gnu.offload_ind_funcs\")))"
            + " void (*const ind[])(void) = {ind0};\n";
    InspectedObject o = build(source, "nv14");
    NvptxTargetData n = assertInstanceOf(NvptxTargetData.class, onlyImage(o));
    assertEquals(OptionalInt.of(0x30001), n.version());
    assertEquals(
        new LayoutFields(TargetDataLayout.GCC14, OptionalLong.of(0x200), OptionalInt.of(3)),
        n.fields());
    assertEquals(List.of("f0", "f1"), n.functions().stream().map(f -> f.name()).toList());
    InspectedHostTables t = o.hostTables().orElseThrow();
    assertEquals(List.of("ind0"), t.indirectFunctions().stream().map(f -> f.name()).toList());
    assertEquals(List.of("f0", "f1"), t.functions().stream().map(f -> f.name()).toList());
  }

  @Test
  void gcc13GcnReadsVariablesRightAfterTheKernelTable() throws Exception {
    InspectedObject o =
        build(String.format(GCN, "unsigned global_variable_count;", "0", "5", "0x20003"), "gcn13");
    GcnTargetData g = assertInstanceOf(GcnTargetData.class, onlyImage(o));
    assertEquals(OptionalInt.of(0x20003), g.version());
    assertEquals(
        new LayoutFields(TargetDataLayout.GCC13, OptionalLong.of(0), OptionalInt.empty()),
        g.fields());
    assertEquals(5, g.variableCount());
    assertEquals(List.of("f0", "f1"), g.kernels().stream().map(k -> k.name()).toList());
    assertEquals(8, g.image().length);
  }

  @Test
  void gcc14GcnReadsTheInsertedIndirectCountThenTheMovedVariableCount() throws Exception {
    String fields = "unsigned ind_func_count; unsigned global_variable_count;";
    InspectedObject o = build(String.format(GCN, fields, "128", "2, 7", "0x30003"), "gcn14");
    GcnTargetData g = assertInstanceOf(GcnTargetData.class, onlyImage(o));
    assertEquals(OptionalInt.of(0x30003), g.version());
    assertEquals(
        new LayoutFields(TargetDataLayout.GCC14, OptionalLong.of(0x80), OptionalInt.of(2)),
        g.fields());
    assertEquals(7, g.variableCount());
    assertEquals(
        List.of(11, 21), List.of(g.kernels().get(1).sgprCount(), g.kernels().get(1).vgprCount()));
  }

  @Test
  void unreadableVersionFallsBackToTheGcc13Reading() throws Exception {
    // The register call passes the version from a variable, so no "mov $imm,%edi" is there.
    String source =
        String.format(NVPTX, "unsigned ind_fn_num;", "0", ", 9", "version")
            .replace(
                "static __attribute__",
                "volatile unsigned version = 0x30001;\nstatic __attribute__");
    InspectedObject o = build(source, "novers");
    NvptxTargetData n = assertInstanceOf(NvptxTargetData.class, onlyImage(o));
    assertEquals(OptionalInt.empty(), n.version());
    assertEquals(TargetDataLayout.GCC13, n.fields().layout());
    assertEquals(OptionalInt.empty(), n.fields().indirectFunctions());
  }

  @Test
  void symbolNamesFollowTheLayout() {
    assertEquals("target_data", TargetDataLayout.GCC12.symbol("nvptx"));
    assertEquals("gcn_data", TargetDataLayout.GCC14.symbol("gcn"));
    assertEquals(8, TargetDataLayout.GCC13.headerSize());
    assertEquals(0, TargetDataLayout.GCC12.headerSize());
  }
}
