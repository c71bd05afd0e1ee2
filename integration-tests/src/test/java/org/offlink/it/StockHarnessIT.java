package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.offlink.it.RegistrationAssertions.assertBuilt;
import static org.offlink.it.RegistrationAssertions.assertLinkRefused;
import static org.offlink.it.RegistrationAssertions.assertMatchesCorpus;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The harness proven against stock GCC 12: every corpus program builds for nvptx, GCN gfx906 and
 * both, runs (host fallback), prints its expected output and registers the expected images; a
 * representative subset also builds for GCN fiji and gfx900. The spy's digests are cross-checked
 * against the files {@code -save-temps} keeps.
 *
 * <p>Tagged {@code harness}: it checks stock GCC and the corpus, no offlink code, so the test run
 * leaves it out (about 4 minutes of one of CI's two cores); run it with {@code
 * -Dofflink.it.excludedGroups=none} after changing the corpus or the harness, or when Debian
 * updates GCC. Every other IT still compares offlink with stock on the same programs.
 */
@Tag("harness")
class StockHarnessIT {
  /** Programs also built for the older GCN archs: C, C++, Fortran, OpenMP, OpenACC, a library. */
  static final List<String> ARCH_SUBSET =
      List.of(
          "c_declare_target_tus", "c_acc_parallel", "cpp_templates", "f_target", "c_shared_lib");

  @TempDir static Path scratch;
  private static Toolchain toolchain;

  @BeforeAll
  static void buildSpy() throws IOException {
    toolchain = Toolchain.create(scratch);
  }

  static Stream<Arguments> matrix() {
    Stream<Arguments> full =
        Corpus.all().stream()
            .flatMap(
                p ->
                    Stream.of(TargetSet.NVPTX, TargetSet.gcn("gfx906"), TargetSet.both("gfx906"))
                        .map(t -> Arguments.of(p, t)));
    Stream<Arguments> archs =
        Corpus.programs(ARCH_SUBSET.toArray(String[]::new)).stream()
            .flatMap(
                p ->
                    Stream.of(TargetSet.gcn("fiji"), TargetSet.gcn("gfx900"))
                        .map(t -> Arguments.of(p, t)));
    return Stream.concat(full, archs);
  }

  @ParameterizedTest(name = "{0} [{1}]")
  @MethodSource("matrix")
  void stockBuildRunsAndRegistersExpectedImages(
      CorpusProgram program, TargetSet targets, @TempDir Path work) throws IOException {
    BuildResult build = toolchain.build(program, targets, ToolDir.stock(), work);
    if (program.linkFails()) {
      assertLinkRefused(build);
      return;
    }
    assertBuilt(build);
    assertMatchesCorpus(toolchain.run(build));
  }

  @Test
  void corpusCoversWhatTheOffloadLinkMustHandle() {
    List<CorpusProgram> all = Corpus.all();
    assertTrue(all.size() >= 20, "at least 20 programs, found " + all.size());
    for (Language language : Language.values()) {
      assertTrue(all.stream().anyMatch(p -> p.language() == language), "some " + language);
    }
    for (Model model : List.of(Model.OPENMP, Model.OPENACC)) {
      assertTrue(all.stream().anyMatch(p -> p.model() == model), "some " + model);
    }
    assertTrue(all.stream().anyMatch(p -> !p.staticSources().isEmpty()), "a static library");
    assertTrue(all.stream().anyMatch(p -> !p.sharedSources().isEmpty()), "a shared library");
    assertTrue(
        all.stream().anyMatch(p -> p.expectedImages().isEmpty() && !p.linkFails()),
        "a program registering nothing");
    assertTrue(
        all.stream().anyMatch(p -> p.expectedImages().stream().anyMatch(i -> i.hostFuncs() >= 50)),
        "a large image");
    assertTrue(
        all.stream().anyMatch(p -> p.expectedImages().stream().anyMatch(i -> i.hostFuncs() == 0)),
        "an image with variables only");
    assertTrue(all.stream().anyMatch(p -> p.sources().size() >= 3), "several translation units");
  }

  @Test
  void spyGcnDigestIsTheHsacoMkoffloadEmbeds(@TempDir Path work) throws IOException {
    CorpusProgram program = Corpus.program("c_declare_target_tus");
    BuildResult build =
        toolchain.build(
            program, TargetSet.gcn("gfx906"), ToolDir.stock(), work, List.of("-save-temps"));
    assertBuilt(build);
    RunResult run = toolchain.run(build);
    byte[] hsaco = Files.readAllBytes(work.resolve("prog.xamdgcn-amdhsa.mkoffload.hsaco"));
    String line =
        run.dump().registered().get(0).body().stream()
            .filter(l -> l.startsWith(" gcn image "))
            .findFirst()
            .orElseThrow();
    assertEquals(
        " gcn image size=" + hsaco.length + " sha256=" + Digests.sha256(hsaco),
        line.substring(0, line.indexOf(" e_flags=")));
  }

  @Test
  void spyNvptxDigestsAreThePtxChunksMkoffloadEmbeds(@TempDir Path work) throws IOException {
    CorpusProgram program = Corpus.program("c_acc_routine_tus");
    BuildResult build =
        toolchain.build(program, TargetSet.NVPTX, ToolDir.stock(), work, List.of("-save-temps"));
    assertBuilt(build);
    RunResult run = toolchain.run(build);
    byte[] ptx = Files.readAllBytes(work.resolve("prog.xnvptx-none.mkoffload"));
    List<String> expected = Digests.nvptxChunkLines(ptx);
    List<String> actual =
        run.dump().registered().get(0).body().stream()
            .filter(l -> l.startsWith(" nvptx ptx["))
            .toList();
    assertEquals(expected, actual);
  }
}
