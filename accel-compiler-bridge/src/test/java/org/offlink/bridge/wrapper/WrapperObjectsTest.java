package org.offlink.bridge.wrapper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.image.GcnDataLayout;
import org.offlink.bridge.image.GcnImage;
import org.offlink.bridge.image.GcnKernel;
import org.offlink.bridge.image.HsaXnack;
import org.offlink.bridge.image.NvptxFunction;
import org.offlink.bridge.image.NvptxImage;

/**
 * Links the wrapper objects with a stand-in libgomp ({@code harness.c}) in PIE, non-PIE and {@code
 * -shared} modes and checks that what the constructor registers is exactly the image.
 */
class WrapperObjectsTest {
  static final NvptxImage NVPTX =
      new NvptxImage(
          List.of(
              ".version 6.0\n.target sm_30\n// \"quoted\" \\ back\n"
                  .getBytes(StandardCharsets.UTF_8),
              ".visible .global .align 4 .u32 gvar;\n".getBytes(StandardCharsets.UTF_8)),
          List.of("gvar", "gd"),
          List.of(
              new NvptxFunction("main$_omp_fn$1", 1, 1, 32),
              new NvptxFunction("main$_omp_fn$0", 0x20, 1, 0x40)));

  static final GcnImage GCN =
      new GcnImage(
          new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 64, 0, (byte) 0xe0, (byte) 0xff},
          List.of(
              new GcnKernel("_init_array", 0, 0, 0, 0, 0),
              new GcnKernel("_fini_array", 0, 0, 0, 0, 0),
              new GcnKernel("main._omp_fn.0", 32, 1, 1, 62, 24),
              new GcnKernel("main._omp_fn.1", 0, 0, 0, 40, 8)),
          3);

  @TempDir Path dir;

  @BeforeEach
  void copyHarness() throws Exception {
    for (String name : new String[] {"harness.c", "table.c"}) {
      try (InputStream in = WrapperObjectsTest.class.getResourceAsStream(name)) {
        Files.write(dir.resolve(name), in.readAllBytes());
      }
    }
    Gcc.run(dir, "gcc", "-c", "-fPIC", "table.c", "-o", "table.o").clean("gcc table.c");
  }

  /** What harness.c must print for {@link #NVPTX} from one of init/fini. */
  static String expectedNvptx(String what) {
    StringBuilder s = new StringBuilder();
    s.append(what).append(" version=0x10001 type=5 table=1111,2222,3333,4444\n");
    s.append("ptx_num=").append(NVPTX.ptxChunks().size()).append('\n');
    for (int i = 0; i < NVPTX.ptxChunks().size(); i++) {
      byte[] c = NVPTX.ptxChunks().get(i);
      s.append("ptx ").append(i).append(" size=").append(c.length + 1).append(" bytes=");
      s.append(HexFormat.of().formatHex(c)).append("00\n");
    }
    s.append("var_num=2\nvar 0 gvar\nvar 1 gd\nfn_num=2\n");
    s.append("fn 0 main$_omp_fn$1 1 1 32\nfn 1 main$_omp_fn$0 32 1 64\n");
    return s.toString();
  }

  static String expectedGcn(String what) {
    StringBuilder s = new StringBuilder();
    s.append(what).append(" version=0x10002 type=8 table=1111,2222,3333,4444\n");
    s.append("image size=11 bytes=").append(HexFormat.of().formatHex(GCN.hsaco())).append('\n');
    s.append("kernel_count=4\n");
    s.append("kernel 0 _init_array 0 0 0 sgpr=0 vgpr=0\n");
    s.append("kernel 1 _fini_array 0 0 0 sgpr=0 vgpr=0\n");
    s.append("kernel 2 main._omp_fn.0 32 1 1 sgpr=62 vgpr=24\n");
    s.append("kernel 3 main._omp_fn.1 0 0 0 sgpr=40 vgpr=8\n");
    s.append("global_variable_count=3\n");
    return s.toString();
  }

  @Test
  void nvptxElfRegistersTheImageInPieNoPieAndSharedLinks() throws Exception {
    Files.write(dir.resolve("w.o"), WrapperObjects.nvptxElf(NVPTX));
    String expected = expectedNvptx("register") + "main\n" + expectedNvptx("unregister");
    assertAllLinkModes("w.o", expected);
  }

  @Test
  void gcnElfRegistersTheImageInPieNoPieAndSharedLinks() throws Exception {
    Files.write(dir.resolve("w.o"), WrapperObjects.gcnElf(GCN));
    String expected = expectedGcn("register") + "main\n" + expectedGcn("unregister");
    assertAllLinkModes("w.o", expected);
  }

  @Test
  void nvptxCFormCompiledByGccRegistersExactlyWhatTheElfFormRegisters() throws Exception {
    Files.write(dir.resolve("elf.o"), WrapperObjects.nvptxElf(NVPTX));
    Files.writeString(dir.resolve("w.c"), WrapperObjects.nvptxC(NVPTX));
    // mkoffload's own host compile: -fPIC -m64 -c (NV:359-405).
    Gcc.run(dir, "gcc", "-fPIC", "-m64", "-c", "w.c", "-o", "c.o").clean("gcc -c nvptx C");
    assertEquals(run(link("elf", "elf.o", "-pie")), run(link("c", "c.o", "-pie")));
    assertEquals(expectedNvptx("register") + "main\n" + expectedNvptx("unregister"), run("c"));
  }

  @Test
  void gcnCFormCompiledByGccRegistersExactlyWhatTheElfFormRegisters() throws Exception {
    Files.write(dir.resolve("elf.o"), WrapperObjects.gcnElf(GCN));
    Files.writeString(dir.resolve("w.c"), WrapperObjects.gcnC(GCN));
    Gcc.run(dir, "gcc", "-fPIC", "-m64", "-c", "w.c", "-o", "c.o").clean("gcc -c gcn C");
    assertEquals(run(link("elf", "elf.o", "-pie")), run(link("c", "c.o", "-pie")));
    assertEquals(expectedGcn("register") + "main\n" + expectedGcn("unregister"), run("c"));
  }

  /** {@link #GCN} as GCC 13, 14 and 15 register it: requires mask 640, one indirect function. */
  private static GcnImage gcn(GcnDataLayout layout) {
    return new GcnImage(
        GCN.hsaco(), GCN.kernels(), 3, layout, 640, 1, 0, "x.hsaco", HsaXnack.UNCHECKED);
  }

  /** What harness.c prints for {@link #gcn} of {@code layout}. */
  private static String expectedGcn(String what, GcnDataLayout layout) {
    String gcc12 = expectedGcn(what);
    String body =
        gcc12
            .replace("version=0x10002", String.format("version=%#x", layout.registerVersion()))
            .replace("4444\n", "4444\nrequires_mask=640\n");
    return layout.indirectFunctions()
        ? body.replace("global_variable_count", "ind_func_count=1\nglobal_variable_count")
        : body;
  }

  @Test
  void gcc13And14LayoutsRegisterTheMaskAndCountsInBothForms() throws Exception {
    for (GcnDataLayout layout : List.of(GcnDataLayout.GCC13, GcnDataLayout.GCC14)) {
      Files.write(dir.resolve("elf.o"), WrapperObjects.gcnElf(gcn(layout)));
      Files.writeString(dir.resolve("w.c"), WrapperObjects.gcnC(gcn(layout)));
      Gcc.run(dir, "gcc", "-fPIC", "-m64", "-c", "w.c", "-o", "c.o").clean("gcc -c gcn C");
      String expected =
          expectedGcn("register", layout) + "main\n" + expectedGcn("unregister", layout);
      assertEquals(expected, run(link("c", "c.o", "-pie")), layout + " C form");
      assertAllLinkModes("elf.o", expected);
    }
  }

  @Test
  void gcc15RegistersGcc14sBytesAndItsCFormEmbedsTheHsaco() throws Exception {
    Files.write(dir.resolve("elf.o"), WrapperObjects.gcnElf(gcn(GcnDataLayout.GCC15)));
    String expected =
        expectedGcn("register", GcnDataLayout.GCC15)
            + "main\n"
            + expectedGcn("unregister", GcnDataLayout.GCC15);
    assertEquals(expected, run(link("elf", "elf.o", "-pie")));
    String c = WrapperObjects.gcnC(gcn(GcnDataLayout.GCC15));
    assertTrue(
        c.contains(
            "static unsigned char gcn_code[] = {\n"
                + "#embed \"x.hsaco\" if_empty (error_file_is_empty)\n};\n\n"
                + "static const struct gcn_image {\n  __SIZE_TYPE__ size;\n  void *image;\n}"
                + " gcn_image = {\n  sizeof(gcn_code),\n  gcn_code\n};\n"),
        c);
    assertTrue(c.startsWith("static const int gcn_num_vars = 3;\n\n"), c);
    assertTrue(c.contains("  __UINTPTR_TYPE__ omp_requires_mask;\n"), c);
  }

  /**
   * GCC 16's C file, character for character as stock 16.2.0-4 wrote it for saxpy (resources
   * gcc16-*.c, kept with -save-temps): the default gfx90a (empty mkoffload_setup) and gfx908 with
   * -mstack-size=4096 (stack size, then HSA_XNACK=0: gfx908's XNACK is off).
   */
  @Test
  void gcc16CFormIsStocksWithMkoffloadSetup() throws Exception {
    String hsaco = "./prog.xamdgcn-amdhsa.mkoffload.hsaco";
    List<GcnKernel> kernels =
        List.of(
            new GcnKernel("_init_array", 0, 0, 0, 0, 0),
            new GcnKernel("_fini_array", 0, 0, 0, 0, 0),
            new GcnKernel("main._omp_fn.0", 0, 0, 0, 62, 48));
    GcnImage gfx90a =
        new GcnImage(
            new byte[8], kernels, 0, GcnDataLayout.GCC16, 512, 0, 0, hsaco, HsaXnack.UNCHECKED);
    assertEquals(resource("gcc16-gfx90a.c"), WrapperObjects.gcnC(gfx90a));
    List<GcnKernel> gfx908Kernels = new java.util.ArrayList<>(kernels.subList(0, 2));
    gfx908Kernels.add(new GcnKernel("main._omp_fn.0", 0, 0, 0, 62, 24));
    GcnImage gfx908 =
        new GcnImage(
            new byte[8], gfx908Kernels, 0, GcnDataLayout.GCC16, 512, 0, 4096, hsaco, HsaXnack.OFF);
    assertEquals(resource("gcc16-gfx908-stack-size.c"), WrapperObjects.gcnC(gfx908));
    assertTrue(gfx908.setsEnvironment());
    assertFalse(gfx90a.setsEnvironment());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new GcnImage(
                new byte[8], kernels, 0, GcnDataLayout.GCC15, 512, 0, 0, hsaco, HsaXnack.ON));
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = WrapperObjectsTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void cetLinkKeepsIbtAndShstkBecauseTheWrapperCarriesTheProperty() throws Exception {
    // Debian's crt1/crti lack the property, so the check is a relocatable CET link: ld ANDs the
    // x86 feature bits of all inputs and, with cet-report=error, rejects an input without them.
    Files.write(dir.resolve("w.o"), WrapperObjects.nvptxElf(NVPTX));
    Gcc.run(dir, "gcc", "-fcf-protection", "-c", "harness.c", "-o", "h.o").clean("gcc -c");
    Gcc.run(dir, "ld", "-r", "-z", "cet-report=error", "-o", "m.o", "h.o", "w.o").clean("ld -r");
    String notes = Gcc.run(dir, "readelf", "-n", "m.o").clean("readelf -n");
    assertTrue(notes.contains("x86 feature: IBT, SHSTK"), notes);
  }

  @Test
  void objectsAreCleanForReadelfAndDeterministic() throws Exception {
    for (byte[] o : new byte[][] {WrapperObjects.nvptxElf(NVPTX), WrapperObjects.gcnElf(GCN)}) {
      Files.write(dir.resolve("w.o"), o);
      String all = Gcc.run(dir, "readelf", "-a", "-W", "w.o").clean("readelf -a");
      assertTrue(
          Pattern.compile("NOTYPE\\s+GLOBAL\\s+HIDDEN\\s+UND __OFFLOAD_TABLE__")
              .matcher(all)
              .find());
      assertTrue(all.contains("R_X86_64_PLT32"), all);
      assertFalse(all.contains("GOTPCREL"), all);
      assertTrue(
          Pattern.compile("\\.data\\.rel\\.ro\\.local\\s+PROGBITS.* WA ").matcher(all).find());
      assertTrue(
          Pattern.compile("OBJECT\\s+LOCAL\\s+DEFAULT\\s+\\d+ target_data").matcher(all).find());
      assertTrue(Pattern.compile("FUNC\\s+LOCAL\\s+DEFAULT\\s+1 init").matcher(all).find());
    }
    assertArrayEquals(WrapperObjects.nvptxElf(NVPTX), WrapperObjects.nvptxElf(NVPTX));
    assertArrayEquals(WrapperObjects.gcnElf(GCN), WrapperObjects.gcnElf(GCN));
  }

  @Test
  void emptyNvptxImageStillLinksAndRegistersNothing() throws Exception {
    Files.write(dir.resolve("w.o"), WrapperObjects.nvptxElf(NvptxImage.empty()));
    String out = run(link("e", "w.o", "-pie"));
    assertTrue(
        out.startsWith(
            "register version=0x10001 type=5 table=1111,2222,3333,4444\n"
                + "ptx_num=0\nvar_num=0\nfn_num=0\nmain\n"),
        out);
  }

  private void assertAllLinkModes(String object, String expected) throws Exception {
    assertEquals(expected, run(checkedExe(link("pie", object, "-pie"))), "PIE");
    assertEquals(expected, run(checkedExe(link("nopie", object, "-no-pie"))), "non-PIE");
    Gcc.run(dir, "gcc", "-shared", "-o", "libw.so", "table.o", object).clean("gcc -shared");
    checkNoTextrelAndStackNotExecutable("libw.so");
    Gcc.run(
            dir,
            "gcc",
            "-o",
            "so",
            "harness.c",
            "-L.",
            "-Wl,--no-as-needed",
            "-lw",
            "-Wl,-rpath," + dir)
        .clean("link against libw.so");
    assertEquals(expected, run("so"), "-shared");
  }

  private String link(String exe, String object, String mode) throws Exception {
    Gcc.run(dir, "gcc", mode, "-o", exe, "harness.c", "table.o", object).clean("gcc " + mode);
    return exe;
  }

  private String checkedExe(String exe) throws Exception {
    checkNoTextrelAndStackNotExecutable(exe);
    return exe;
  }

  private void checkNoTextrelAndStackNotExecutable(String file) throws Exception {
    String dyn = Gcc.run(dir, "readelf", "-d", "-W", file).clean("readelf -d");
    assertFalse(dyn.contains("TEXTREL"), dyn);
    String phdrs = Gcc.run(dir, "readelf", "-l", "-W", file).clean("readelf -l");
    Matcher m = Pattern.compile("GNU_STACK(?:\\s+0x[0-9a-f]+){5}\\s+(\\S+)").matcher(phdrs);
    assertTrue(m.find(), phdrs);
    assertEquals("RW", m.group(1), phdrs);
  }

  private String run(String exe) throws Exception {
    return Gcc.run(dir, dir.resolve(exe).toString()).clean(exe);
  }
}
