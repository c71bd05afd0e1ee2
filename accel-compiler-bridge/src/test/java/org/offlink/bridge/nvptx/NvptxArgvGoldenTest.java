package org.offlink.bridge.nvptx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.TestContexts;
import org.offlink.bridge.gcc.AccelTools;
import org.offlink.bridge.gcc.GccInstallation;
import org.offlink.bridge.gcc.GccVersion;
import org.offlink.bridge.gcc.OffloadAbi;
import org.offlink.bridge.gcc.OffloadOptions;
import org.offlink.bridge.gcc.OffloadOptionsFixture;
import org.offlink.bridge.gcn.GcnImageBuilderArgv;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.bridge.process.FakeProcessRunner;
import org.offlink.bridge.temp.TempScopes;

/** Golden argv of the accel runs, with temp paths normalised to {@code <tmp>}. */
class NvptxArgvGoldenTest {
  @TempDir Path dir;

  @Test
  void accelCompileArgvWithoutSaveTemps() throws Exception {
    Path bin = dir.resolve("bin");
    Files.createDirectories(bin);
    Path accel = bin.resolve("x86_64-linux-gnu-accel-nvptx-none-gcc-12");
    Files.writeString(accel, "");
    accel.toFile().setExecutable(true);
    FakeProcessRunner fake =
        new FakeProcessRunner(
            c -> {
              String out = c.argv().get(c.argv().size() - 1);
              Files.write(Path.of(out), "x\n//:FUNC_MAP \"f\"\n\0".getBytes());
              return FakeProcessRunner.ok(c, "");
            });
    Map<String, String> env =
        Map.of(
            "PATH",
            bin.toString(),
            "COLLECT_GCC",
            "gcc",
            "TMPDIR",
            dir.toString(),
            "COMPILER_PATH",
            "/c",
            "GCC_EXEC_PREFIX",
            "/g");
    PrintStream err = new PrintStream(new ByteArrayOutputStream());
    OffloadOptions options =
        OffloadOptionsFixture.of(
            List.of("t.o"),
            OffloadAbi.LP64,
            true,
            List.of("-march=sm_35"),
            false,
            false,
            "./x.xnvptx-none");
    NvptxImage image =
        TempScopes.build(
            TestContexts.of(env, dir, err),
            options,
            (ctx, temps) ->
                new NvptxImageBuilder(
                        new AccelTools(
                            fake,
                            ctx,
                            new GccInstallation("x86_64-linux-gnu", new GccVersion(12, 2, 0))))
                    .build(options, temps));
    assertEquals(1, image.functions().size());
    assertEquals(1, fake.commands().size());
    String argv =
        String.join(" ", fake.commands().get(0).argv())
            .replaceAll(
                java.util.regex.Pattern.quote(dir.toString()) + "/cc\\w{6}", "<tmp>/ccXXXXXX");
    assertEquals(
        "x86_64-linux-gnu-accel-nvptx-none-gcc-12 -xlto -m64 -mgomp t.o -foffload-abi=lp64"
            + " -fopenmp -dumpbase ./x.xnvptx-none -march=sm_35 -dumpdir  -dumpbase"
            + " ./x.xnvptx-none.mkoffload -dumpbase-ext  -o <tmp>/ccXXXXXX.mkoffload",
        argv);
    assertEquals(".gcc_args", fake.commands().get(0).responseFileSuffix().orElseThrow());
    // GCC_EXEC_PREFIX and COMPILER_PATH are hidden from the accel compiler
    assertEquals(
        Map.of("PATH", bin.toString(), "COLLECT_GCC", "gcc", "TMPDIR", dir.toString()),
        fake.commands().get(0).environment());
    // the temp PTX file is gone after the build
    try (var files = Files.list(dir)) {
      assertEquals(List.of(bin), files.toList());
    }
  }

  @Test
  void ilp32RunsNothing() throws Exception {
    FakeProcessRunner fake = FakeProcessRunner.succeeding();
    PrintStream err = new PrintStream(new ByteArrayOutputStream());
    OffloadOptions options =
        OffloadOptionsFixture.of(
            List.of("t.o"), OffloadAbi.ILP32, false, List.of(), false, false, "x");
    NvptxImage image =
        TempScopes.build(
            TestContexts.of(Map.of(), dir, err),
            options,
            (ctx, temps) ->
                new NvptxImageBuilder(
                        new AccelTools(
                            fake,
                            ctx,
                            new GccInstallation("x86_64-linux-gnu", new GccVersion(12, 2, 0))))
                    .build(options, temps));
    assertEquals(NvptxImage.empty().ptxChunks(), image.ptxChunks());
    assertEquals(List.of(), fake.commands());
  }

  @Test
  void gcnLinkArgvGolden() throws Exception {
    assertEquals(
        "drv ./x.mkoffload.2.s -lgomp -mno-xnack -msram-ecc=off -v -lm -Wl,-z -march=gfx906 -o h",
        String.join(
            " ",
            GcnImageBuilderArgv.link(
                "drv",
                List.of("t.o", "-lm", "-Wl,-z", "-msram-ecc=off", "-march=gfx906"),
                "./x.mkoffload.2.s",
                "h")));
  }
}
