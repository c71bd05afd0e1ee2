package org.offlink.streamer.inspect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.streamer.testing.Toolchain;

/**
 * Decodes programs linked by the real gcc-12 with both offload targets: PIE, non-PIE and a shared
 * library, whose host tables and wrapper data must read the same whatever the relocation model.
 */
class LinkedProgramInspectionTest {
  private static final String PROGRAM =
      """
      #include <stdio.h>
      int gvar[4];
      #pragma omp declare target(gvar)
      int main (void)
      {
        int s = 0;
        #pragma omp target map(tofrom: s)
        { for (int i = 0; i < 4; i++) s += gvar[i] + i; }
        #pragma omp target map(tofrom: s)
        { s *= 2; }
        printf ("%d\\n", s);
        return 0;
      }
      """;
  private static final String LIBRARY =
      """
      long lvar[8];
      #pragma omp declare target(lvar)
      int lf (int n)
      {
        int s = 0;
        #pragma omp target map(tofrom: s)
        { for (int i = 0; i < n; i++) s += lvar[i & 7]; }
        return s;
      }
      """;

  @TempDir static Path dir;

  @BeforeAll
  static void link() throws Exception {
    Toolchain.write(dir, "t.c", PROGRAM);
    Toolchain.write(dir, "l.c", LIBRARY);
    String targets = "-foffload=nvptx-none,amdgcn-amdhsa";
    String arch = "-foffload-options=amdgcn-amdhsa=-march=gfx906";
    Toolchain.stdout(dir, "gcc-12", "-O2", "-fopenmp", targets, arch, "t.c", "-o", "pie");
    Toolchain.stdout(
        dir, "gcc-12", "-O2", "-no-pie", "-fopenmp", targets, arch, "t.c", "-o", "exe");
    Toolchain.stdout(
        dir, "gcc-12", "-O2", "-shared", "-fPIC", "-fopenmp", targets, arch, "l.c", "-o", "l.so");
  }

  private static InspectedObject inspect(String name) throws IOException {
    List<InspectedObject> all = BinaryInspector.inspect(dir.resolve(name));
    assertEquals(1, all.size());
    return all.get(0);
  }

  @Test
  void pieAndNonPieDecodeTheSameTablesAndImages() throws IOException {
    InspectedObject pie = inspect("pie");
    InspectedObject exe = inspect("exe");
    assertEquals("pie executable", pie.kind());
    assertEquals("executable", exe.kind());
    for (InspectedObject o : List.of(pie, exe)) {
      InspectedHostTables t = o.hostTables().orElseThrow();
      assertEquals(
          List.of("main._omp_fn.0", "main._omp_fn.1"),
          t.functions().stream().map(HostFunction::name).sorted().toList());
      assertEquals(1, t.variables().size());
      assertEquals("gvar", t.variables().get(0).name());
      assertEquals(16, t.variables().get(0).size());
      assertFalse(t.variables().get(0).link());
      assertEquals(2, o.images().size());
    }
    NvptxTargetData a = nvptx(pie);
    NvptxTargetData b = nvptx(exe);
    assertEquals(a.chunks(), b.chunks());
    assertEquals(a.functions(), b.functions());
    assertArrayEquals(gcn(pie).image(), gcn(exe).image());
  }

  @Test
  void nvptxTargetDataMatchesTheHostTables() throws IOException {
    InspectedObject pie = inspect("pie");
    NvptxTargetData n = nvptx(pie);
    assertEquals(OptionalInt.of(0x10001), n.version());
    assertEquals(List.of("gvar"), n.variables());
    // libgomp pairs by index: device function i is host function i with '.' spelled '$'.
    List<String> host =
        pie.hostTables().orElseThrow().functions().stream().map(HostFunction::name).toList();
    assertEquals(
        host.stream().map(s -> s.replace('.', '$')).toList(),
        n.functions().stream().map(NvptxFunctionEntry::name).toList());
    assertTrue(n.functions().stream().allMatch(f -> f.dims().equals(List.of(0, 0, 0))));
    assertFalse(n.chunks().isEmpty());
    PtxChunk first = n.chunks().get(0);
    assertEquals(Optional.of("sm_30"), first.ptxTarget());
    assertTrue(first.ptxVersion().isPresent());
    byte[] registered = first.registered();
    assertEquals(0, registered[registered.length - 1], "GCC registers the NUL");
    assertEquals(registered.length - 1, first.text().length);
  }

  @Test
  void gcnTargetDataNamesKernelsAndTheGpu() throws Exception {
    GcnTargetData g = gcn(inspect("pie"));
    assertEquals(OptionalInt.of(0x10002), g.version());
    assertEquals("_init_array", g.kernels().get(0).name());
    assertEquals("_fini_array", g.kernels().get(1).name());
    assertEquals(
        List.of("main._omp_fn.0", "main._omp_fn.1"),
        g.offloadKernels().stream().map(GcnKernelEntry::name).sorted().toList());
    assertEquals(1, g.variableCount());
    HsacoTarget target = HsacoTarget.of(g.image(), dir.resolve("pie"));
    assertEquals("gfx906", target.processor());
    assertTrue(g.offloadKernels().stream().allMatch(k -> k.sgprCount() > 0 && k.vgprCount() > 0));
  }

  @Test
  void sharedLibraryResolvesRelocatedPointers() throws IOException {
    InspectedObject so = inspect("l.so");
    assertEquals("shared library", so.kind());
    InspectedHostTables t = so.hostTables().orElseThrow();
    assertEquals(List.of("lf._omp_fn.0"), t.functions().stream().map(HostFunction::name).toList());
    assertEquals("lvar", t.variables().get(0).name());
    assertEquals(64, t.variables().get(0).size());
    NvptxTargetData n = nvptx(so);
    assertEquals(List.of("lvar"), n.variables());
    assertEquals(List.of("lf$_omp_fn$0"), n.functions().stream().map(f -> f.name()).toList());
    assertEquals(List.of("lvar"), List.of(n.variables().get(0)));
    assertEquals(3, gcn(so).kernels().size());
  }

  @Test
  void objectsListTheirOffloadSections() throws Exception {
    Toolchain.stdout(
        dir, "gcc-12", "-O2", "-fopenmp", "-foffload=nvptx-none", "-c", "l.c", "-o", "l.o");
    InspectedObject o = inspect("l.o");
    assertEquals("object", o.kind());
    assertTrue(o.irSections().stream().anyMatch(s -> s.stream().equals("offload")));
    IrSection funcs =
        o.irSections().stream()
            .filter(s -> s.name().equals(".gnu.offload_funcs"))
            .findFirst()
            .orElseThrow();
    assertEquals(1, funcs.entries());
    assertTrue(o.images().isEmpty());
  }

  private static NvptxTargetData nvptx(InspectedObject o) {
    return assertInstanceOf(
        NvptxTargetData.class,
        o.images().stream().filter(i -> i.deviceType() == 5).findFirst().orElseThrow());
  }

  private static GcnTargetData gcn(InspectedObject o) {
    return assertInstanceOf(
        GcnTargetData.class,
        o.images().stream().filter(i -> i.deviceType() == 8).findFirst().orElseThrow());
  }
}
