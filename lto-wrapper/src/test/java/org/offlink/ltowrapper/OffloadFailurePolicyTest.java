package org.offlink.ltowrapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.ltowrapper.io.OptsSectionName;

/**
 * A target whose image fails to build: dropped with one warning when gcc chose the targets ({@code
 * OFFLOAD_TARGET_DEFAULT}), fatal as GCC 12 otherwise or with {@code --offload-failure=fatal}.
 */
class OffloadFailurePolicyTest {
  @TempDir Path dir;

  private Harness harness(boolean targetDefault) throws IOException {
    Harness h = new Harness(dir);
    h.env.put("COLLECT_GCC_OPTIONS", "'-fopenmp' '-o' 'x' '-dumpdir' 'x.'");
    h.env.put("OFFLOAD_TARGET_NAMES", "nvptx-none:amdgcn-amdhsa");
    if (targetDefault) {
      h.env.put("OFFLOAD_TARGET_DEFAULT", "1");
    }
    h.mkoffload("gcc", "nvptx-none");
    h.env.put("COMPILER_PATH", h.mkoffload("gcc", "amdgcn-amdhsa"));
    Files.createDirectories(dir.resolve("lib"));
    Files.writeString(dir.resolve("lib/crtoffloadtable.o"), "table");
    h.env.put("LIBRARY_PATH", dir.resolve("lib").toString());
    h.object("x.o", OptsSectionName.OFFLOAD, "'-fopenmp' '-foffload-abi=lp64'");
    h.write("x.ofldlist", "1\nx.o\n");
    return h;
  }

  /** amdgcn's mkoffload fails the way an accel link does; nvptx succeeds. */
  private static FakeProcessRunner.Handler amdgcnFails() {
    FakeProcessRunner.Handler produce = LtoWrapperGoldenTest.produce(0);
    return (argv, cwd) -> {
      if (argv.get(0).contains("amdgcn")) {
        throw new FakeProcessRunner.Failure(
            1,
            "some noise\nld.lld: error: unknown processor 'gfx908'\n"
                + "mkoffload: fatal error: x86_64-linux-gnu-accel-amdgcn-amdhsa-gcc-12 returned 1"
                + " exit status\ncompilation terminated.\n");
      }
      return produce.handle(argv, cwd);
    };
  }

  /** Every mkoffload fails. */
  private static FakeProcessRunner.Handler everyTargetFails() {
    return (argv, cwd) -> {
      throw new FakeProcessRunner.Failure(1, "mkoffload: fatal error: no accel compiler\n");
    };
  }

  @Test
  void defaultTargetsDropTheFailingOneWithOneWarning() throws IOException {
    Harness h = harness(true);
    assertEquals(0, h.run(amdgcnFails(), "-fresolution=x.res", "-foffload-objects=x.ofldlist"));
    assertEquals(
        "lto-wrapper: warning: offload target 'amdgcn-amdhsa' dropped (its code runs on the"
            + " host): mkoffload: fatal error: x86_64-linux-gnu-accel-amdgcn-amdhsa-gcc-12 returned"
            + " 1 exit status\n",
        h.err());
    String[] lines = h.out().split("\n");
    assertEquals(2, lines.length, h.out());
    assertTrue(lines[0].endsWith(".crtoffloadtable.o"));
    assertTrue(lines[1].endsWith(".target.o"));
    try (var files = Files.list(dir.resolve("tmp"))) {
      assertEquals(2, files.count(), "the dropped target's object is removed");
    }
  }

  @Test
  void noImageMeansNoTableObjectLeftBehind() throws IOException {
    // The table object is written while the accel compilers run; with every target dropped
    // there is nothing to register, so, as in GCC, no table is printed and its file is gone.
    Harness h = harness(true);
    assertEquals(
        0, h.run(everyTargetFails(), "-fresolution=x.res", "-foffload-objects=x.ofldlist"));
    assertEquals("", h.out());
    assertEquals(2, h.err().split("\n").length, h.err());
    try (var files = Files.list(dir.resolve("tmp"))) {
      assertEquals(0, files.count(), "no table object or image left in the temp dir");
    }
  }

  @Test
  void saveTempsKeepsTheTableObjectOnlyWhenAnImageUsesIt() throws IOException {
    Harness h = harness(true);
    h.env.put("COLLECT_GCC_OPTIONS", "'-fopenmp' '-save-temps' '-o' 'x' '-dumpdir' 'x.'");
    assertEquals(0, h.run(amdgcnFails(), "-fresolution=x.res", "-foffload-objects=x.ofldlist"));
    assertTrue(Files.exists(dir.resolve("x.crtoffloadtable.o")), h.out());
    Files.delete(dir.resolve("x.crtoffloadtable.o"));
    Harness none = harness(true);
    none.env.put("COLLECT_GCC_OPTIONS", "'-fopenmp' '-save-temps' '-o' 'x' '-dumpdir' 'x.'");
    assertEquals(
        0, none.run(everyTargetFails(), "-fresolution=x.res", "-foffload-objects=x.ofldlist"));
    assertEquals("", none.out());
    assertFalse(Files.exists(dir.resolve("x.crtoffloadtable.o")), "written early, then removed");
  }

  @Test
  void offloadFailureFatalKeepsGccsError() throws IOException {
    Harness h = harness(true);
    h.env.put("OFFLINK_FLAGS", "--wrapper=c --offload-failure=fatal");
    assertEquals(1, h.run(amdgcnFails(), "-fresolution=x.res", "-foffload-objects=x.ofldlist"));
    assertTrue(h.err().contains("ld.lld: error: unknown processor 'gfx908'\n"), h.err());
    assertTrue(
        h.err()
            .endsWith(
                "lto-wrapper: fatal error: $DIR/gcc//accel/amdgcn-amdhsa/mkoffload returned 1"
                    + " exit status\ncompilation terminated.\n"),
        h.err());
    assertEquals("", h.out());
  }

  @Test
  void explicitTargetsAreFatalAsGcc() throws IOException {
    Harness h = harness(false);
    assertEquals(1, h.run(amdgcnFails(), "-fresolution=x.res", "-foffload-objects=x.ofldlist"));
    assertTrue(h.err().contains("returned 1 exit status\ncompilation terminated.\n"), h.err());
  }

  @Test
  void unknownOfflinkFlagIsOneLine() throws IOException {
    Harness h = harness(true);
    h.env.put("OFFLINK_FLAGS", "--wrapper=elf --frobnicate");
    assertEquals(1, h.run(amdgcnFails(), "-fresolution=x.res", "-foffload-objects=x.ofldlist"));
    assertEquals(1, h.err().split("\n").length, h.err());
    assertTrue(
        h.err().startsWith("lto-wrapper: error: OFFLINK_FLAGS: unknown option '--frobnicate'"),
        h.err());
  }
}
