package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.offlink.it.RegistrationAssertions.assertBuilt;
import static org.offlink.it.RegistrationAssertions.assertLinkRefused;
import static org.offlink.it.RegistrationAssertions.assertMatchesCorpus;
import static org.offlink.it.RegistrationAssertions.assertSameBehaviour;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;

/**
 * {@code -g} GCN images are stock's, byte for byte: gcn mkoffload links the host objects' early
 * debug info into the HSACO (GCC 12 {@code copy_early_debug_info}, reference §4.6). Each case
 * compiles the program with debug flags and links it with {@code -save-temps} twice in the same
 * folder (the HSACO's DWARF names the link folder): once with stock GCC, once with offlink's
 * mkoffload behind stock's lto-wrapper. The {@code .mkoffload.dbg<N>.o} objects and the {@code
 * .mkoffload.hsaco} must be equal, the registrations (HSACO and PTX digests) too, and stock's image
 * must really carry the copied sections. nvptx images in the same programs stay identical.
 */
class GcnDebugImageIT {
  private static final List<String> G = List.of("-g");
  private static final List<String> G3 = List.of("-g3", "-O0");
  private static final List<String> SUBSET =
      List.of(
          "c_target_scalar",
          "c_declare_target_tus",
          "c_static_lib",
          "c_acc_parallel",
          "cpp_templates",
          "cpp_multi_tu",
          "f_target",
          "f_declare_target");

  @TempDir static Path scratch;
  private static Toolchain toolchain;
  private static Path dist;

  @BeforeAll
  static void setUp() throws IOException {
    dist = Toolchain.offlinkDist();
    toolchain = Toolchain.create(scratch);
  }

  static Stream<Arguments> matrix() {
    Stream<Arguments> g =
        Corpus.all().stream().map(p -> Arguments.of(p, TargetSet.gcn("gfx906"), G));
    Stream<Arguments> g3 =
        Corpus.programs(SUBSET.toArray(String[]::new)).stream()
            .map(p -> Arguments.of(p, TargetSet.gcn("gfx906"), G3));
    Stream<Arguments> both =
        Corpus.programs("c_target_scalar", "cpp_templates", "f_target", "c_acc_parallel").stream()
            .map(p -> Arguments.of(p, TargetSet.both("gfx906"), G));
    Stream<Arguments> archs =
        Corpus.programs("c_declare_target_tus", "f_target").stream()
            .flatMap(
                p ->
                    Stream.of(TargetSet.gcn("gfx900"), TargetSet.gcn("fiji"))
                        .map(t -> Arguments.of(p, t, G)));
    return Stream.of(g, g3, both, archs).flatMap(s -> s);
  }

  @ParameterizedTest(name = "{0} [{1}] {2}")
  @MethodSource("matrix")
  void debugImagesAreStocks(
      CorpusProgram program, TargetSet targets, List<String> flags, @TempDir Path work)
      throws IOException {
    assertSameAsStock(program, targets, flags, ours(work), work);
  }

  /** Host LTO objects carry the same early debug sections; and the whole offlink tree. */
  static Stream<Arguments> offlinkTree() {
    Stream<Arguments> lto =
        Corpus.programs("c_target_scalar", "cpp_multi_tu", "f_declare_target").stream()
            .map(p -> Arguments.of(p, TargetSet.gcn("gfx906"), List.of("-g", "-flto"), false));
    Stream<Arguments> tree =
        Corpus.programs("c_declare_target_tus", "c_static_lib", "cpp_templates").stream()
            .map(p -> Arguments.of(p, TargetSet.both("gfx906"), G, true));
    return Stream.concat(lto, tree);
  }

  @ParameterizedTest(name = "{0} [{1}] {2} whole offlink tree={3}")
  @MethodSource("offlinkTree")
  void hostLtoAndWholeTree(
      CorpusProgram program,
      TargetSet targets,
      List<String> flags,
      boolean wholeTree,
      @TempDir Path work)
      throws IOException {
    ToolDir tools =
        wholeTree
            ? new ToolDir("offlink", Optional.of(dist.resolve("libexec/offlink")))
            : ours(work);
    assertSameAsStock(program, targets, flags, tools, work);
  }

  private static void assertSameAsStock(
      CorpusProgram program, TargetSet targets, List<String> flags, ToolDir ours, Path work)
      throws IOException {
    CorpusProgram debug = withFlags(program, flags);
    Path folder = work.resolve("build");
    List<String> saveTemps = List.of("-save-temps");
    BuildResult stockBuild = toolchain.build(debug, targets, ToolDir.stock(), folder, saveTemps);
    if (program.linkFails()) {
      assertLinkRefused(stockBuild);
      assertLinkRefused(toolchain.build(debug, targets, ours, work.resolve("o"), saveTemps));
      return;
    }
    assertBuilt(stockBuild);
    RunResult stock = toolchain.run(stockBuild);
    assertMatchesCorpus(stock);
    TreeMap<String, byte[]> stockFiles = gcnArtifacts(folder);
    if (!program.expectedImages().isEmpty()) {
      assertStockCarriesEarlyDebug(stockFiles, folder, flags);
    }
    Files.move(folder, work.resolve("stock"));

    BuildResult oursBuild = toolchain.build(debug, targets, ours, folder, saveTemps);
    assertBuilt(oursBuild);
    RunResult mine = toolchain.run(oursBuild);
    TreeMap<String, byte[]> ourFiles = gcnArtifacts(folder);
    assertEquals(stockFiles.keySet(), ourFiles.keySet(), "the same dbg objects and HSACOs");
    for (String name : stockFiles.keySet()) {
      assertArrayEquals(stockFiles.get(name), ourFiles.get(name), name + " differs from stock's");
    }
    assertSameBehaviour(stock, mine);
  }

  /**
   * Without -save-temps the copies are temp files: none is left in TMPDIR, while GCC 12 leaves an
   * empty {@code ccXXXXXX.mkoffload.dbg.o} for every object without debug info.
   */
  @Test
  void noDebugCopyIsLeftBehind(@TempDir Path work) throws IOException {
    CorpusProgram withDebug = withFlags(Corpus.program("c_static_lib"), G);
    BuildResult ours =
        toolchain.build(withDebug, TargetSet.gcn("gfx906"), ours(work), work.resolve("g"));
    assertBuilt(ours);
    assertEquals(List.of(), list(work.resolve("g/tmp")), "temp files left by a -g link");

    CorpusProgram plain = Corpus.program("c_target_scalar");
    BuildResult stock =
        toolchain.build(plain, TargetSet.gcn("gfx906"), ToolDir.stock(), work.resolve("stock"));
    assertBuilt(stock);
    assertTrue(
        list(work.resolve("stock/tmp")).stream().anyMatch(n -> n.endsWith(".mkoffload.dbg.o")),
        "GCC 12 leaks an empty .mkoffload.dbg.o for an object without debug info");
    BuildResult mine =
        toolchain.build(plain, TargetSet.gcn("gfx906"), ours(work), work.resolve("ours"));
    assertBuilt(mine);
    assertEquals(List.of(), list(work.resolve("ours/tmp")), "temp files left by offlink");
  }

  private static ToolDir ours(Path work) throws IOException {
    Path dir = work.resolve("tools");
    if (Files.isDirectory(dir)) {
      return new ToolDir("offlink-mkoffload", Optional.of(dir));
    }
    return new ToolDirBuilder(dir, toolchain.stockLibexec(), "offlink-mkoffload")
        .passThroughLtoWrapper()
        .offlinkMkoffload(OffloadTarget.GCN, dist)
        .offlinkMkoffload(OffloadTarget.NVPTX, dist)
        .build();
  }

  private static CorpusProgram withFlags(CorpusProgram p, List<String> extra) {
    List<String> flags = new ArrayList<>(p.flags());
    flags.addAll(extra);
    return new CorpusProgram(
        p.name(),
        p.directory(),
        p.language(),
        p.model(),
        p.sources(),
        p.staticSources(),
        p.sharedSources(),
        flags,
        p.linkFlags(),
        p.expectedImages(),
        p.expectedLinkError(),
        p.expectedOutput());
  }

  /** The early debug objects and HSACOs that -save-temps kept, by name. */
  private static TreeMap<String, byte[]> gcnArtifacts(Path folder) throws IOException {
    TreeMap<String, byte[]> files = new TreeMap<>();
    for (String name : list(folder)) {
      if (name.matches(".*\\.mkoffload\\.dbg[0-9]+\\.o") || name.endsWith(".mkoffload.hsaco")) {
        files.put(name, Files.readAllBytes(folder.resolve(name)));
      }
    }
    return files;
  }

  /** Keeps the test honest: stock's -g image has the sections only the copies bring. */
  private static void assertStockCarriesEarlyDebug(
      TreeMap<String, byte[]> files, Path folder, List<String> flags) throws IOException {
    List<String> images = files.keySet().stream().filter(n -> n.endsWith(".hsaco")).toList();
    assertFalse(images.isEmpty(), "stock kept no HSACO in " + folder);
    assertTrue(
        files.keySet().stream().anyMatch(n -> n.contains(".mkoffload.dbg")),
        "stock made no early debug object in " + folder);
    for (String image : images) {
      try (ElfFile elf = ElfReader.read(folder.resolve(image))) {
        assertTrue(elf.section(".debug_line_str").isPresent(), image + ": .debug_line_str");
        if (flags.contains("-g3")) {
          assertTrue(elf.section(".debug_macro").isPresent(), image + ": .debug_macro");
        }
      }
    }
  }

  private static List<String> list(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }
}
