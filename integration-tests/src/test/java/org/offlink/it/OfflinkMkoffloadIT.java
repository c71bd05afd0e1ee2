package org.offlink.it;

import static org.offlink.it.RegistrationAssertions.assertBuilt;
import static org.offlink.it.RegistrationAssertions.assertLinkRefused;
import static org.offlink.it.RegistrationAssertions.assertMatchesCorpus;
import static org.offlink.it.RegistrationAssertions.assertSameBehaviour;

import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * offlink's mkoffload as a drop-in: every corpus program is linked once with stock GCC and once
 * with a tool folder whose {@code accel/<target>/mkoffload} are offlink's launchers (lto-wrapper
 * stays stock, as a pass-through symlink), and the two must behave and register identically.
 */
class OfflinkMkoffloadIT {
  @TempDir static Path scratch;
  private static Toolchain toolchain;
  private static Path dist;

  @BeforeAll
  static void setUp() throws IOException {
    dist = Toolchain.offlinkDist();
    toolchain = Toolchain.create(scratch);
  }

  static Stream<Arguments> matrix() {
    Stream<Arguments> all =
        Corpus.all().stream()
            .flatMap(
                p ->
                    Stream.of(TargetSet.NVPTX, TargetSet.gcn("gfx906"), TargetSet.both("gfx906"))
                        .map(t -> Arguments.of(p, t, "elf")));
    Stream<Arguments> olderArchs =
        Corpus.programs(StockHarnessIT.ARCH_SUBSET.toArray(String[]::new)).stream()
            .flatMap(
                p ->
                    Stream.of(TargetSet.gcn("fiji"), TargetSet.gcn("gfx900"))
                        .map(t -> Arguments.of(p, t, "elf")));
    Stream<Arguments> cWrapper =
        Corpus.programs(StockHarnessIT.ARCH_SUBSET.toArray(String[]::new)).stream()
            .map(p -> Arguments.of(p, TargetSet.both("gfx906"), "c"));
    return Stream.concat(all, Stream.concat(olderArchs, cWrapper));
  }

  @ParameterizedTest(name = "{0} [{1}] wrapper={2}")
  @MethodSource("matrix")
  void offlinkMkoffloadMatchesStock(
      CorpusProgram program, TargetSet targets, String wrapper, @TempDir Path work)
      throws IOException {
    ToolDirBuilder builder =
        new ToolDirBuilder(work.resolve("tools"), toolchain.stockLibexec(), "offlink-mkoffload")
            .passThroughLtoWrapper();
    for (OffloadTarget target : targets.targets()) {
      builder.offlinkMkoffload(target, dist);
    }
    ToolDir ours = builder.build().withEnvironment("OFFLINK_FLAGS", "--wrapper=" + wrapper);
    BuildResult stockBuild =
        toolchain.build(program, targets, ToolDir.stock(), work.resolve("stock"));
    BuildResult oursBuild = toolchain.build(program, targets, ours, work.resolve("ours"));
    if (program.linkFails()) {
      assertLinkRefused(stockBuild);
      assertLinkRefused(oursBuild);
      return;
    }
    assertBuilt(stockBuild);
    assertBuilt(oursBuild);
    RunResult stock = toolchain.run(stockBuild);
    RunResult mine = toolchain.run(oursBuild);
    assertMatchesCorpus(stock);
    assertSameBehaviour(stock, mine);
  }
}
