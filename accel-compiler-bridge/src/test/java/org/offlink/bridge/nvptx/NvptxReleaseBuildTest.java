package org.offlink.bridge.nvptx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
import org.offlink.bridge.gcc.OffloadOptionException;
import org.offlink.bridge.gcc.OffloadOptions;
import org.offlink.bridge.gcc.OffloadOptionsFixture;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.FakeProcessRunner;
import org.offlink.bridge.temp.TempScopes;

/**
 * The nvptx build with a GCC 13+ record: the requires file handed to the accel compiler and read
 * back, GCC 15's accel flags and {@code -l_GCC_} rewriting (delta §5.1-5.2).
 */
class NvptxReleaseBuildTest {
  @TempDir Path dir;

  private NvptxImage build(int major, List<String> targetOptions, int mask, List<Command> seen)
      throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path accel = bin.resolve("x86_64-linux-gnu-accel-nvptx-none-gcc-" + major);
    Files.writeString(accel, "");
    accel.toFile().setExecutable(true);
    FakeProcessRunner fake =
        new FakeProcessRunner(
            c -> {
              String out = c.argv().get(c.argv().size() - 1);
              String ptx = "// P\n.version 6.0\n.target sm_35\n//:FUNC_MAP \"main$_omp_fn$0\"\n\0";
              Files.write(Path.of(out), ptx.getBytes(StandardCharsets.ISO_8859_1));
              String requires = c.environment().get("GCC_OFFLOAD_OMP_REQUIRES_FILE");
              if (requires != null) {
                Files.write(
                    dir.resolve(requires), new byte[] {(byte) mask, (byte) (mask >> 8), 0, 0});
              }
              return FakeProcessRunner.ok(c, "");
            });
    Map<String, String> env =
        Map.of("PATH", bin.toString(), "COLLECT_GCC", "gcc", "TMPDIR", dir.toString());
    PrintStream err = new PrintStream(new ByteArrayOutputStream());
    OffloadOptions options =
        OffloadOptionsFixture.of(
            List.of("t.o"), OffloadAbi.LP64, true, targetOptions, false, false, "./x.xnvptx-none");
    NvptxImage image =
        TempScopes.build(
            TestContexts.of(env, dir, err),
            options,
            (ctx, temps) ->
                new NvptxImageBuilder(
                        new AccelTools(
                            fake,
                            ctx,
                            new GccInstallation("x86_64-linux-gnu", new GccVersion(major, 1, 0))))
                    .build(options, temps));
    seen.addAll(fake.commands());
    return image;
  }

  @Test
  void gcc15PassesTheRequiresFileAddsFakeExceptionsAndRewritesLibraries() throws Exception {
    List<Command> seen = new java.util.ArrayList<>();
    NvptxImage image = build(15, List.of("-l_GCC_m", "-l_GCC_stdc++", "-l_GCC_other"), 0x200, seen);
    assertEquals(0x200, image.requiresMask());
    assertEquals(0x30001, image.layout().version());
    List<String> argv = seen.get(0).argv();
    assertEquals(argv.indexOf("-mgomp") + 1, argv.indexOf("-mfake-exceptions"), argv.toString());
    assertTrue(argv.containsAll(List.of("-lm", "-lstdc++", "-l_GCC_other")), argv.toString());
    assertFalse(argv.contains("-l_GCC_m"), argv.toString());
    String requires = seen.get(0).environment().get("GCC_OFFLOAD_OMP_REQUIRES_FILE");
    assertTrue(requires.endsWith(".mkoffload.omp_requires"), requires);
    assertFalse(Files.exists(dir.resolve(requires)), "the requires file is a temp file");
  }

  @Test
  void gcc13HasNeitherFakeExceptionsNorRewriting() throws Exception {
    List<Command> seen = new java.util.ArrayList<>();
    NvptxImage image = build(13, List.of("-l_GCC_m"), 0x280, seen);
    assertEquals(0x280, image.requiresMask());
    assertEquals(0x20001, image.layout().version());
    assertEquals(1, image.tableChunks().size(), "reverse offload: $offload_func_table chunk");
    List<String> argv = seen.get(0).argv();
    assertFalse(argv.contains("-mfake-exceptions"), argv.toString());
    assertTrue(argv.contains("-l_GCC_m"), argv.toString());
  }

  @Test
  void gcc12PassesNoRequiresFile() throws Exception {
    List<Command> seen = new java.util.ArrayList<>();
    NvptxImage image = build(12, List.of(), 0, seen);
    assertEquals(NvptxImage.Layout.GCC12, image.layout());
    assertFalse(seen.get(0).environment().containsKey("GCC_OFFLOAD_OMP_REQUIRES_FILE"));
  }

  @Test
  void abiHostOptsIsParsedOnceAndNotTwice() throws Exception {
    OffloadOptions once =
        OffloadOptions.parse(
            List.of("-foffload-abi=lp64", "-foffload-abi-host-opts=-m64", "-fopenmp", "-o", "x"));
    assertEquals(java.util.Optional.of("-m64"), once.abiHostOpts());
    OffloadOptionException twice =
        assertThrows(
            OffloadOptionException.class,
            () ->
                OffloadOptions.parse(
                    List.of(
                        "-foffload-abi=lp64",
                        "-foffload-abi-host-opts=-m64",
                        "-foffload-abi-host-opts=-m64",
                        "-fopenmp",
                        "-o",
                        "x")));
    assertEquals("'-foffload-abi-host-opts' specified multiple times", twice.getMessage());
  }
}
