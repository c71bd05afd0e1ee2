package org.offlink.bridge.nvptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.gcc.AccelTools;
import org.offlink.bridge.gcc.GccInstallation;
import org.offlink.bridge.gcc.GccVersion;
import org.offlink.bridge.gcc.OffloadOptions;
import org.offlink.bridge.gcc.OffloadOptionsFixture;
import org.offlink.bridge.gcc.RealToolchain;
import org.offlink.bridge.image.NvptxFunction;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ToolFailedException;
import org.offlink.bridge.temp.TempScopes;
import org.offlink.bridge.tool.ToolNotFoundException;

/** Compares our nvptx image with what the installed GCC 12 mkoffload registers. */
class NvptxImageBuilderRealTest {
  static final GccInstallation GCC =
      new GccInstallation("x86_64-linux-gnu", new GccVersion(12, 2, 0));
  static final String OMP =
      "int b[100];\n#pragma omp declare target(b)\n"
          + "int main(void){int a[100];\n#pragma omp target map(from:a)\n"
          + "for(int i=0;i<100;i++)a[i]=i;\n#pragma omp target\nb[1]=2;\nreturn a[5]-5;}\n";
  static final String ACC =
      "int main(void){int a[1000];\n"
          + "#pragma acc parallel loop num_gangs(32) vector_length(64) copyout(a)\n"
          + "for(int i=0;i<1000;i++)a[i]=i;\n#pragma acc parallel copy(a)\na[0]=1;\nreturn a[5]-5;}\n";

  @TempDir Path stock;
  @TempDir Path ours;
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

  private NvptxImage compareWithStock(String source, String model, String ourPath)
      throws Exception {
    RealToolchain.compile(stock, "t", source, model, "-foffload=nvptx-none");
    Files.copy(stock.resolve("t.o"), ours.resolve("t.o"));
    CommandResult r =
        RealToolchain.stockLink(
            stock, RealToolchain.SAFE_PATH, "t.o", model, "-foffload=nvptx-none");
    assertEquals(0, r.exitStatus(), r.stderr());
    OffloadOptions options =
        OffloadOptions.parse(RealToolchain.readArgs(stock.resolve("x.offload_args")));
    NvptxImage image =
        TempScopes.build(
            RealToolchain.context(ours, ourPath, err),
            options,
            (ctx, temps) ->
                new NvptxImageBuilder(
                        new AccelTools(RealToolchain.runner(options, ours, err), ctx, GCC))
                    .build(options, temps));
    String c = RealToolchain.readC(stock.resolve("x.xnvptx-none.c"));
    List<byte[]> chunks = RealToolchain.ptxChunks(c);
    assertEquals(chunks.size(), image.ptxChunks().size());
    for (int i = 0; i < chunks.size(); i++) {
      assertArrayEquals(chunks.get(i), image.ptxChunks().get(i), "chunk " + i);
    }
    List<String> vars = new ArrayList<>();
    RealToolchain.matches(RealToolchain.block(c, "var_mappings[] = {"), "\"([^\"]*)\"")
        .forEach(g -> vars.add(g.get(0)));
    assertEquals(vars, image.variables());
    List<NvptxFunction> funcs = new ArrayList<>();
    for (List<String> g :
        RealToolchain.matches(
            RealToolchain.block(c, "func_mappings[] = {"),
            "\\{\"([^\"]*)\"(?:, (\\w+), (\\w+), (\\w+))?\\}")) {
      funcs.add(new NvptxFunction(g.get(0), dim(g.get(1)), dim(g.get(2)), dim(g.get(3))));
    }
    assertEquals(funcs, image.functions());
    // the accel driver saw exactly stock's arguments (same response file bytes)
    assertEquals(
        Files.readString(stock.resolve("x.xnvptx-none.gcc_args")),
        Files.readString(ours.resolve("x.xnvptx-none.gcc_args")));
    return image;
  }

  private static int dim(String s) {
    return s == null ? 0 : Integer.decode(s);
  }

  @Test
  void openmpMatchesStock() throws Exception {
    NvptxImage image = compareWithStock(OMP, "-fopenmp", RealToolchain.SAFE_PATH);
    assertEquals(List.of("b"), image.variables());
    assertEquals(2, image.functions().size());
    assertTrue(image.ptxChunks().size() > 5);
  }

  @Test
  void openaccMatchesStockWithDims() throws Exception {
    NvptxImage image = compareWithStock(ACC, "-fopenacc", RealToolchain.SAFE_PATH);
    assertTrue(
        image.functions().stream().anyMatch(f -> f.gang() == 32 && f.vector() == 64),
        image.functions().toString());
  }

  /**
   * The ptxas trap: a CUDA 12+ {@code ptxas} first on PATH rejects GCC 12's sm_30, so stock fails.
   * This machine's CUDA 13 one in /usr/local/bin where it has one; elsewhere (a fresh Debian, which
   * cannot install CUDA from main) a stand-in that answers as CUDA 13's does, as PtxasTrapIT's.
   */
  @Test
  void ptxasTrapIsAvoidedWhereStockFails(@TempDir Path cuda) throws Exception {
    Path bin = Path.of("/usr/local/bin");
    if (!Files.isExecutable(bin.resolve("ptxas"))) {
      bin = cuda;
      Files.writeString(
          bin.resolve("ptxas"),
          "#!/bin/sh\n"
              + "for a in \"$@\"; do case $a in --version) echo 'Cuda compilation tools,"
              + " release 13.0, V13.0.48'; exit 0;; sm_30|sm_35|*=sm_30|*=sm_35) echo \"ptxas"
              + " fatal   : Value '$a' is not defined for option 'gpu-name'\" >&2; exit 255;;"
              + " esac; done\nexit 0\n");
      Files.setPosixFilePermissions(
          bin.resolve("ptxas"), PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    String trapPath = bin + ":" + RealToolchain.SAFE_PATH;
    RealToolchain.compile(stock, "t", OMP, "-fopenmp", "-foffload=nvptx-none");
    CommandResult r =
        RealToolchain.stockLink(stock, trapPath, "t.o", "-fopenmp", "-foffload=nvptx-none");
    assertNotEquals(
        0, r.exitStatus(), "stock GCC 12 fails with CUDA 13's ptxas (" + bin + ") on PATH");
    Files.copy(stock.resolve("t.o"), ours.resolve("t.o"));
    OffloadOptions options =
        OffloadOptions.parse(RealToolchain.readArgs(stock.resolve("x.offload_args")));
    NvptxImage image =
        TempScopes.build(
            RealToolchain.context(ours, trapPath, err),
            options,
            (ctx, temps) ->
                new NvptxImageBuilder(
                        new AccelTools(RealToolchain.runner(options, ours, err), ctx, GCC))
                    .build(options, temps));
    assertEquals(List.of("b"), image.variables());
    String warnings = errBytes.toString(StandardCharsets.UTF_8);
    assertEquals(
        1, warnings.lines().filter(l -> l.startsWith("mkoffload: warning:")).count(), warnings);
    assertTrue(warnings.contains("OFFLINK_PTXAS=keep"), warnings);
  }

  @Test
  void missingAccelCompilerAndFailingAccelCompiler() throws Exception {
    OffloadOptions options =
        OffloadOptionsFixture.of(
            List.of("t.o"),
            org.offlink.bridge.gcc.OffloadAbi.LP64,
            true,
            List.of(),
            false,
            false,
            "./x.xnvptx-none");
    ToolNotFoundException nf =
        assertThrows(
            ToolNotFoundException.class,
            () ->
                TempScopes.build(
                    RealToolchain.context(ours, "/nonexistent", err),
                    options,
                    (ctx, temps) ->
                        new NvptxImageBuilder(
                                new AccelTools(RealToolchain.runner(options, ours, err), ctx, GCC))
                            .build(options, temps)));
    assertEquals("gcc-12-offload-nvptx", nf.debianPackage());
    // the input is not an offload object: the real accel compiler fails
    Files.writeString(ours.resolve("t.o"), "not an object");
    ToolFailedException tf =
        assertThrows(
            ToolFailedException.class,
            () ->
                TempScopes.build(
                    RealToolchain.context(ours, RealToolchain.SAFE_PATH, err),
                    options,
                    (ctx, temps) ->
                        new NvptxImageBuilder(
                                new AccelTools(RealToolchain.runner(options, ours, err), ctx, GCC))
                            .build(options, temps)));
    assertEquals("x86_64-linux-gnu-accel-nvptx-none-gcc-12", tf.argv().get(0));
    assertNotEquals(0, tf.exitStatus());
    assertTrue(!tf.output().isEmpty());
  }
}
