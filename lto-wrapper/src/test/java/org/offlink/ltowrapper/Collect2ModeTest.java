package org.offlink.ltowrapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.ltowrapper.io.OptsSectionName;

/**
 * collect2 runs lto-wrapper with objects only (no {@code -fresolution=}, no {@code
 * -foffload-objects=}): offload inputs are found by their {@code .gnu.offload_lto_.opts}, images
 * are built, copies of the inputs are handed back for the relink, and no empty host LTO runs.
 */
class Collect2ModeTest {
  @TempDir Path dir;

  /** An nvptx-only link with {@code options} in COLLECT_GCC_OPTIONS. */
  private Harness nvptxLink(String options) throws IOException {
    Harness h = new Harness(dir);
    h.env.put("COLLECT_GCC_OPTIONS", options);
    h.env.put("OFFLOAD_TARGET_NAMES", "nvptx-none");
    h.env.put("COMPILER_PATH", h.mkoffload("gcc", "nvptx-none"));
    return h;
  }

  @Test
  void offloadObjectsAreFoundAndHandedBack() throws IOException {
    Harness h = nvptxLink("'-fopenmp' '-foffload=nvptx-none' '-o' 'x' '-no-pie'");
    Files.createDirectories(dir.resolve("lib"));
    Files.writeString(dir.resolve("lib/crtoffloadtable.o"), "gcc's table");
    h.env.put("LIBRARY_PATH", dir.resolve("lib").toString());
    h.object("a.o", OptsSectionName.OFFLOAD, "'-fopenmp' '-foffload-abi=lp64'");
    h.object("b.o", OptsSectionName.OFFLOAD, "'-fopenmp' '-foffload-abi=lp64'");
    assertEquals(0, h.run(LtoWrapperGoldenTest.produce(0), "a.o", "b.o"), h.err());
    assertEquals(1, h.runner.commands.size(), "mkoffload only, no WPA: " + h.commands());
    List<String> cmd = h.runner.commands.get(0);
    assertTrue(cmd.get(0).endsWith("accel/nvptx-none/mkoffload"));
    assertTrue(cmd.indexOf("a.o") < cmd.indexOf("b.o"), "inputs in argument order");
    String[] lines = h.out.toString().split("\n");
    assertEquals(4, lines.length, h.out());
    assertEquals("gcc's table", Files.readString(Path.of(lines[0])), "-no-pie: GCC's copy");
    assertTrue(lines[1].endsWith(".target.o"));
    assertEquals("fake object", Files.readString(Path.of(lines[2])), "copy of a.o");
    assertTrue(lines[2].endsWith(".host.o") && lines[3].endsWith(".host.o"));
    assertTrue(Files.exists(dir.resolve("a.o")) && Files.exists(dir.resolve("b.o")));
    // Classified, listed as offload inputs, merged and checked against: each read once.
    assertEquals(java.util.Map.of("a.o", 1, "b.o", 1), h.scans);
  }

  @Test
  void anObjectThatIsBothLtoAndOffloadIsScannedOnce() throws IOException {
    Harness h = nvptxLink("'-fopenmp' '-o' 'x'");
    h.env.put("LIBRARY_PATH", dir.resolve("nolib").toString());
    h.object("a.o", OptsSectionName.OFFLOAD, "'-fopenmp'");
    h.object("a.o", OptsSectionName.HOST_LTO, "'-fopenmp' '-flto'");
    h.write("x.ofldlist", "1\na.o\n");
    h.run(
        LtoWrapperGoldenTest.produce(0),
        "-fresolution=x.res",
        "-flinker-output=pie",
        "-foffload-objects=x.ofldlist",
        "a.o");
    assertEquals(java.util.Map.of("a.o", 1), h.scans, h.err());
  }

  @Test
  void pluginModePieGetsOurTable() throws IOException {
    Harness h = nvptxLink("'-fopenmp' '-o' 'x'");
    h.env.put("LIBRARY_PATH", dir.resolve("nolib").toString()); // no crtoffloadtable.o needed
    h.object("a.o", OptsSectionName.OFFLOAD, "'-fopenmp'");
    h.write("x.ofldlist", "1\na.o\n");
    assertEquals(
        0,
        h.run(
            LtoWrapperGoldenTest.produce(0),
            "-fresolution=x.res",
            "-flinker-output=pie",
            "-foffload-objects=x.ofldlist"),
        h.err());
    Path table = Path.of(h.out.toString().split("\n")[0]);
    assertTrue(table.toString().endsWith(".crtoffloadtable.o"));
    assertTrue(
        java.util.Arrays.equals(
            org.offlink.ltowrapper.offload.OffloadTableObjectAccess.bytes(),
            Files.readAllBytes(table)));
  }
}
