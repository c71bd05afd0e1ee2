package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.offlink.it.RegistrationAssertions.assertSameBehaviour;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.offlink.bridge.process.CommandResult;

/**
 * Objects compiled for other offload target sets than the link asks for. The three translation
 * units of {@code c_declare_target_tus} are compiled each with its own {@code -foffload=}, then
 * linked for a given set, once with stock GCC and once through offlink's lto-wrapper and mkoffload;
 * offlink must exit, print and register exactly what stock does.
 *
 * <p>What stock GCC 12 does (observed, and pinned below by the expected registrations): the offload
 * IR a compile writes does not depend on its {@code -foffload=} list, not even on {@code
 * -foffload=disable} (Debian's --enable-offload-defaulted), so the <em>link-time</em> list alone
 * decides the images: every case registers one image per link target, with all three TUs' host
 * tables (1 function, 2 variables).
 */
class MixedOffloadTargetsIT {
  private static final String GCN_ARCH = "-foffload-options=amdgcn-amdhsa=-march=gfx906";
  private static final String BOTH = "-foffload=nvptx-none,amdgcn-amdhsa";

  @TempDir static Path scratch;
  private static Toolchain toolchain;
  private static Path dist;

  @BeforeAll
  static void setUp() throws IOException {
    dist = Toolchain.offlinkDist();
    toolchain = Toolchain.create(scratch);
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("both compiled, nvptx linked", List.of(BOTH, BOTH, BOTH), TargetSet.NVPTX),
        Arguments.of(
            "gcn compiled, nvptx linked",
            List.of(
                "-foffload=amdgcn-amdhsa", "-foffload=amdgcn-amdhsa", "-foffload=amdgcn-amdhsa"),
            TargetSet.NVPTX),
        Arguments.of(
            "nvptx, nvptx, gcn compiled, both linked",
            List.of("-foffload=nvptx-none", "-foffload=nvptx-none", "-foffload=amdgcn-amdhsa"),
            TargetSet.both("gfx906")),
        Arguments.of(
            "default, default, disable compiled, both linked",
            List.of("", "", "-foffload=disable"),
            TargetSet.both("gfx906")),
        Arguments.of(
            "disable compiled, nvptx linked",
            List.of("-foffload=disable", "-foffload=disable", "-foffload=disable"),
            TargetSet.NVPTX));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void offlinkLinksLikeStock(
      String name, List<String> compileOffload, TargetSet linkTargets, @TempDir Path work)
      throws IOException {
    CorpusProgram program = Corpus.program("c_declare_target_tus");
    ToolDirBuilder builder =
        new ToolDirBuilder(work.resolve("tools"), toolchain.stockLibexec(), "offlink")
            .offlinkLtoWrapper(dist);
    for (OffloadTarget target : linkTargets.targets()) {
      builder.offlinkMkoffload(target, dist);
    }
    RunResult stock =
        build(program, compileOffload, linkTargets, ToolDir.stock(), work.resolve("stock"));
    RunResult ours =
        build(program, compileOffload, linkTargets, builder.build(), work.resolve("ours"));
    assertEquals(0, stock.exitStatus(), "stock runs");
    assertEquals(program.expectedOutput(), stock.stdout(), "stock output");
    List<String> expected = new ArrayList<>();
    for (OffloadTarget t : linkTargets.targets()) {
      expected.add(t.deviceType() + " prog 1 2");
    }
    assertEquals(
        expected,
        stock.dump().registered().stream()
            .map(r -> r.deviceType() + " " + r.module() + " " + r.hostFuncs() + " " + r.hostVars())
            .toList(),
        "stock GCC 12 registers one full image per link-time target");
    assertSameBehaviour(stock, ours);
  }

  /** Compiles each TU with its own offload option, links for {@code targets}, runs. */
  private RunResult build(
      CorpusProgram program,
      List<String> compileOffload,
      TargetSet targets,
      ToolDir tools,
      Path dir)
      throws IOException {
    Files.createDirectories(dir);
    Files.copy(program.directory().resolve("shared.h"), dir.resolve("shared.h"));
    StringBuilder log = new StringBuilder();
    List<String> objects = new ArrayList<>();
    for (int i = 0; i < program.sources().size(); i++) {
      String source = program.sources().get(i);
      Files.copy(program.directory().resolve(source), dir.resolve(source));
      String object = source.replace(".c", ".o");
      List<String> argv = new ArrayList<>(List.of("gcc-12", "-fopenmp"));
      if (!compileOffload.get(i).isEmpty()) {
        argv.add(compileOffload.get(i));
      }
      if (compileOffload.get(i).contains("amdgcn")) {
        argv.add(GCN_ARCH);
      }
      argv.addAll(List.of("-c", source, "-o", object));
      objects.add(object);
      step(argv, tools, dir, log);
    }
    List<String> link = new ArrayList<>(List.of("gcc-12", "-fopenmp"));
    link.addAll(tools.driverOptions());
    link.addAll(targets.driverOptions());
    link.addAll(objects);
    link.addAll(List.of("-o", Toolchain.EXECUTABLE));
    step(link, tools, dir, log);
    BuildResult build =
        new BuildResult(
            program,
            targets,
            tools,
            dir,
            0,
            "",
            log.toString(),
            Optional.of(dir.resolve(Toolchain.EXECUTABLE)));
    return toolchain.run(build);
  }

  private static void step(List<String> argv, ToolDir tools, Path dir, StringBuilder log)
      throws IOException {
    CommandResult result = toolchain.step(argv, tools, dir);
    log.append("$ ").append(String.join(" ", argv)).append('\n').append(result.stderr());
    assertEquals(0, result.exitStatus(), () -> tools.label() + " build failed:\n" + log);
  }
}
