package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.offlink.it.RegistrationAssertions.assertBuilt;
import static org.offlink.it.RegistrationAssertions.assertLinkRefused;
import static org.offlink.it.RegistrationAssertions.assertMatchesCorpus;
import static org.offlink.it.RegistrationAssertions.assertSameBehaviour;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * offlink's lto-wrapper as a drop-in, alone and together with offlink's mkoffload: each program is
 * linked with the four combinations {stock, offlink} lto-wrapper × {stock, offlink} mkoffload, and
 * each of the three non-stock combinations must exit, print and register exactly like stock GCC.
 *
 * <p>The full corpus × 3 target sets × 4 combinations takes too long for CI, so this runs a
 * representative subset ({@link #SUBSET}: C, C++, Fortran; OpenMP and OpenACC; several TUs; a
 * static and a shared library; variables only; no images; a large image; link-time {@code
 * -foffload-options}; a link GCC refuses) for nvptx, GCN gfx906 and both. {@code
 * OfflinkMkoffloadIT} covers stock lto-wrapper × offlink mkoffload over the whole corpus.
 */
class LtoWrapperCombinationsIT {
  /** The programs linked in every combination. */
  static final List<String> SUBSET =
      List.of(
          "c_declare_target_tus",
          "c_acc_routine_tus",
          "c_static_lib",
          "c_shared_lib",
          "c_vars_only",
          "c_no_target",
          "c_many_kernels",
          "c_reductions",
          "c_omp_acc_mixed_rejected",
          "cpp_multi_tu",
          "f_declare_target");

  /** One lto-wrapper × mkoffload combination. */
  enum Combination {
    STOCK_STOCK(false, false),
    STOCK_OURS(false, true),
    OURS_STOCK(true, false),
    OURS_OURS(true, true);

    final boolean ourLtoWrapper;
    final boolean ourMkoffload;

    Combination(boolean ourLtoWrapper, boolean ourMkoffload) {
      this.ourLtoWrapper = ourLtoWrapper;
      this.ourMkoffload = ourMkoffload;
    }

    /** {@code lto-wrapper=<who> mkoffload=<who>}. */
    String label() {
      return "lto-wrapper="
          + (ourLtoWrapper ? "offlink" : "stock")
          + " mkoffload="
          + (ourMkoffload ? "offlink" : "stock");
    }
  }

  @TempDir static Path scratch;
  private static Toolchain toolchain;
  private static Path dist;

  @BeforeAll
  static void setUp() throws IOException {
    dist = Toolchain.offlinkDist();
    toolchain = Toolchain.create(scratch);
  }

  static Stream<Arguments> matrix() {
    return Corpus.programs(SUBSET.toArray(String[]::new)).stream()
        .flatMap(
            p ->
                Stream.of(TargetSet.NVPTX, TargetSet.gcn("gfx906"), TargetSet.both("gfx906"))
                    .map(t -> Arguments.of(p, t)));
  }

  /** The tool folder of {@code combination} for {@code targets} under {@code dir}. */
  static ToolDir tools(
      Combination combination, TargetSet targets, Toolchain toolchain, Path dist, Path dir)
      throws IOException {
    if (combination == Combination.STOCK_STOCK) {
      return ToolDir.stock();
    }
    ToolDirBuilder builder = new ToolDirBuilder(dir, toolchain.stockLibexec(), combination.label());
    if (combination.ourLtoWrapper) {
      builder.offlinkLtoWrapper(dist);
    } else {
      builder.passThroughLtoWrapper();
    }
    for (OffloadTarget target : targets.targets()) {
      if (combination.ourMkoffload) {
        builder.offlinkMkoffload(target, dist);
      } else {
        builder.stockMkoffload(target);
      }
    }
    return builder.build();
  }

  @ParameterizedTest(name = "{0} [{1}]")
  @MethodSource("matrix")
  void everyCombinationBehavesLikeStock(
      CorpusProgram program, TargetSet targets, @TempDir Path work) throws IOException {
    BuildResult stockBuild =
        toolchain.build(program, targets, ToolDir.stock(), work.resolve("stock_stock"));
    RunResult stock = null;
    if (program.linkFails()) {
      assertLinkRefused(stockBuild);
    } else {
      assertBuilt(stockBuild);
      stock = toolchain.run(stockBuild);
      assertMatchesCorpus(stock);
    }
    List<Executable> checks = new ArrayList<>();
    for (Combination c : Combination.values()) {
      if (c == Combination.STOCK_STOCK) {
        continue;
      }
      String name = c.name().toLowerCase(java.util.Locale.ROOT);
      ToolDir tools = tools(c, targets, toolchain, dist, work.resolve("tools_" + name));
      BuildResult build = toolchain.build(program, targets, tools, work.resolve(name));
      if (program.linkFails()) {
        checks.add(() -> assertLinkRefused(build));
      } else {
        RunResult baseline = stock;
        checks.add(
            () -> {
              assertBuilt(build);
              assertSameBehaviour(baseline, toolchain.run(build));
            });
      }
    }
    assertAll(program.name() + " [" + targets + "]", checks);
  }
}
