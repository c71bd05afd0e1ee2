package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.offlink.it.RegistrationAssertions.assertBuilt;
import static org.offlink.it.RegistrationAssertions.assertSameBehaviour;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.offlink.bridge.process.CommandResult;

/**
 * Offload PIEs and shared libraries linked through offlink's lto-wrapper (and mkoffload) carry no
 * text relocations: {@code readelf -d} shows no {@code TEXTREL}. Stock GCC 12 links its non-PIC
 * {@code crtoffloadtable.o} into every offload PIE and gets {@code DT_TEXTREL} (reference §2.9);
 * {@link #stockOffloadPieHasTextrel} pins that baseline, so the check is known to notice one.
 *
 * <p>{@link #offlinkOffloadLinksHaveNoTextrel} is tagged {@code offlink-pic-table}: it fails until
 * offlink's lto-wrapper hands the linker a position-independent {@code __OFFLOAD_TABLE__}.
 */
class PieTextrelIT {
  @TempDir static Path scratch;
  private static Toolchain toolchain;
  private static Path dist;

  @BeforeAll
  static void setUp() throws IOException {
    dist = Toolchain.offlinkDist();
    toolchain = Toolchain.create(scratch);
  }

  @Test
  void stockOffloadPieHasTextrel(@TempDir Path work) throws IOException {
    BuildResult build =
        toolchain.build(Corpus.program("c_target_scalar"), TargetSet.NVPTX, ToolDir.stock(), work);
    assertBuilt(build);
    assertTrue(
        dynamicSection(build.executable().orElseThrow()).contains("TEXTREL"),
        "stock GCC 12 offload PIE has DT_TEXTREL (crtoffloadtable.o is not PIC)");
  }

  static Stream<Arguments> links() {
    return Stream.of(
        Arguments.of("c_declare_target_tus", List.of(), TargetSet.NVPTX),
        Arguments.of("c_declare_target_tus", List.of(), TargetSet.gcn("gfx906")),
        Arguments.of("c_acc_parallel", List.of(), TargetSet.both("gfx906")),
        Arguments.of("c_declare_target_tus", List.of("-O2", "-flto"), TargetSet.both("gfx906")),
        Arguments.of("c_shared_lib", List.of(), TargetSet.both("gfx906")));
  }

  @Tag("offlink-pic-table")
  @ParameterizedTest(name = "{0} {1} [{2}]")
  @MethodSource("links")
  void offlinkOffloadLinksHaveNoTextrel(
      String name, List<String> flags, TargetSet targets, @TempDir Path work) throws IOException {
    CorpusProgram program = HostLtoIT.withFlags(Corpus.program(name), flags);
    ToolDirBuilder builder =
        new ToolDirBuilder(work.resolve("tools"), toolchain.stockLibexec(), "offlink")
            .offlinkLtoWrapper(dist);
    for (OffloadTarget target : targets.targets()) {
      builder.offlinkMkoffload(target, dist);
    }
    BuildResult ours = toolchain.build(program, targets, builder.build(), work.resolve("ours"));
    BuildResult stock = toolchain.build(program, targets, ToolDir.stock(), work.resolve("stock"));
    assertBuilt(ours);
    assertBuilt(stock);
    List<Executable> checks = new ArrayList<>();
    for (Path elf : linkedFiles(ours.workDirectory())) {
      checks.add(
          () -> {
            String dynamic = dynamicSection(elf);
            assertFalse(
                dynamic.contains("TEXTREL"),
                () -> elf.getFileName() + " has text relocations:\n" + dynamic);
          });
    }
    checks.add(() -> assertSameBehaviour(toolchain.run(stock), toolchain.run(ours)));
    assertAll(ours.describe(), checks);
  }

  /** The executable and, when built, the shared library. */
  private static List<Path> linkedFiles(Path dir) {
    List<Path> files = new ArrayList<>(List.of(dir.resolve(Toolchain.EXECUTABLE)));
    Path library = dir.resolve("libcorpus.so");
    if (Files.exists(library)) {
      files.add(library);
    }
    return files;
  }

  private static String dynamicSection(Path elf) throws IOException {
    CommandResult readelf =
        toolchain.step(List.of("readelf", "-d", elf.toString()), ToolDir.stock(), elf.getParent());
    assertEquals(0, readelf.exitStatus(), () -> "readelf -d " + elf + ":\n" + readelf.stderr());
    assertTrue(readelf.stdout().contains("(NEEDED)"), () -> "a dynamic section in " + elf);
    return readelf.stdout();
  }
}
