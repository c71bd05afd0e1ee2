package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.offlink.it.RegistrationAssertions.assertBuilt;
import static org.offlink.it.RegistrationAssertions.assertMatchesCorpus;
import static org.offlink.it.RegistrationAssertions.assertSameBehaviour;
import static org.offlink.it.RegistrationAssertions.assertSameRegistrations;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/**
 * Proves the comparison machinery {@link OfflinkMkoffloadIT} relies on: {@code -B <dir>/} makes GCC
 * run the tool folder's lto-wrapper and {@code accel/<target>/mkoffload} (logging wrappers around
 * stock here), what the folder lacks falls through to stock, a pass-through tool folder registers
 * exactly what plain stock registers, and {@link RegistrationAssertions#assertSameRegistrations}
 * does notice a different image.
 */
class ToolDirPlumbingIT {
  @TempDir static Path scratch;
  private static Toolchain toolchain;

  @BeforeAll
  static void buildSpy() throws IOException {
    toolchain = Toolchain.create(scratch);
  }

  @Test
  void bDirectoryRoutesLtoWrapperAndBothMkoffloads(@TempDir Path work) throws IOException {
    CorpusProgram program = Corpus.program("c_declare_target_tus");
    TargetSet both = TargetSet.both("gfx906");
    RunResult stock = buildAndRun(program, both, ToolDir.stock(), work.resolve("stock"));
    Path log = work.resolve("tools.log");
    ToolDir logging =
        new ToolDirBuilder(work.resolve("tools"), toolchain.stockLibexec(), "logging")
            .loggingLtoWrapper(log)
            .loggingStockMkoffload(OffloadTarget.NVPTX, log)
            .loggingStockMkoffload(OffloadTarget.GCN, log)
            .build();
    RunResult ours = buildAndRun(program, both, logging, work.resolve("ours"));

    assertEquals(
        List.of("lto-wrapper", "mkoffload-nvptx-none", "mkoffload-amdgcn-amdhsa"),
        firstWords(log),
        "tools run from the -B folder, in GCC's order");
    assertMatchesCorpus(ours);
    assertSameBehaviour(stock, ours);
  }

  @Test
  void missingToolsFallThroughToStock(@TempDir Path work) throws IOException {
    CorpusProgram program = Corpus.program("c_acc_parallel");
    TargetSet both = TargetSet.both("gfx906");
    RunResult stock = buildAndRun(program, both, ToolDir.stock(), work.resolve("stock"));
    Path log = work.resolve("tools.log");
    ToolDir onlyNvptx =
        new ToolDirBuilder(work.resolve("tools"), toolchain.stockLibexec(), "nvptx-only")
            .passThroughLtoWrapper()
            .loggingStockMkoffload(OffloadTarget.NVPTX, log)
            .build();
    RunResult ours = buildAndRun(program, both, onlyNvptx, work.resolve("ours"));

    assertEquals(List.of("mkoffload-nvptx-none"), firstWords(log), "only nvptx is ours");
    assertTrue(Files.isSymbolicLink(onlyNvptx.directory().orElseThrow().resolve("lto-wrapper")));
    assertSameBehaviour(stock, ours);
  }

  @Test
  void comparisonNoticesADifferentImage(@TempDir Path work) throws IOException {
    CorpusProgram program = Corpus.program("c_target_scalar");
    RunResult gfx906 =
        buildAndRun(program, TargetSet.gcn("gfx906"), ToolDir.stock(), work.resolve("906"));
    RunResult gfx900 =
        buildAndRun(program, TargetSet.gcn("gfx900"), ToolDir.stock(), work.resolve("900"));
    RunResult nvptx = buildAndRun(program, TargetSet.NVPTX, ToolDir.stock(), work.resolve("nv"));

    AssertionFailedError arch =
        assertThrows(AssertionFailedError.class, () -> assertSameRegistrations(gfx906, gfx900));
    assertTrue(arch.getMessage().contains("gcn image size="), arch.getMessage());
    assertThrows(AssertionFailedError.class, () -> assertSameRegistrations(nvptx, gfx906));
    assertSameRegistrations(gfx906, gfx906);
  }

  private static RunResult buildAndRun(
      CorpusProgram program, TargetSet targets, ToolDir tools, Path work) throws IOException {
    BuildResult build = toolchain.build(program, targets, tools, work);
    assertBuilt(build);
    return toolchain.run(build);
  }

  private static List<String> firstWords(Path log) throws IOException {
    return Files.readAllLines(log).stream().map(l -> l.split(" ", 2)[0]).toList();
  }
}
