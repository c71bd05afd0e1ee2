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
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.offlink.bridge.process.CommandResult;

/**
 * Host LTO together with offloading through offlink's lto-wrapper (with offlink's mkoffload unless
 * said otherwise): corpus programs compiled and linked with {@code -flto}, {@code -flto=2}, {@code
 * -flto=auto} (several partitions through {@code -flto-partition=max}), LTO objects in a static
 * archive, a {@code -shared} library with offload, a {@code make -j2} build handing its jobserver
 * to a {@code +} recipe with {@code -flto=jobserver}, and {@code -save-temps}, where the files GCC
 * keeps must have GCC's names and offlink's LTRANS objects must be byte-identical to stock's. Every
 * build must exit, print and register exactly like the same build with stock GCC.
 */
class HostLtoIT {
  /** WPA partitions ({@code <dumppfx>ltrans<N>.o}): random LTO section ids, stock against stock. */
  private static final Pattern WPA_PARTITION = Pattern.compile("prog\\.ltrans[0-9]+\\.o");

  @TempDir static Path scratch;
  private static Toolchain toolchain;
  private static Path dist;

  @BeforeAll
  static void setUp() throws IOException {
    dist = Toolchain.offlinkDist();
    toolchain = Toolchain.create(scratch);
  }

  static Stream<Arguments> ltoBuilds() {
    List<String> lto = List.of("-O2", "-flto");
    List<String> partitioned = List.of("-O2", "-flto-partition=max");
    return Stream.of(
        Arguments.of("c_declare_target_tus", lto, TargetSet.NVPTX),
        Arguments.of("cpp_multi_tu", lto, TargetSet.both("gfx906")),
        Arguments.of("c_acc_routine_tus", lto, TargetSet.gcn("gfx906")),
        Arguments.of("c_declare_target_tus", plus(partitioned, "-flto=2"), TargetSet.gcn("gfx906")),
        Arguments.of("f_declare_target", plus(partitioned, "-flto=auto"), TargetSet.NVPTX),
        Arguments.of("c_static_lib", plus(partitioned, "-flto=2"), TargetSet.both("gfx906")),
        Arguments.of("c_shared_lib", lto, TargetSet.both("gfx906")),
        Arguments.of("cpp_shared_lib", plus(partitioned, "-flto=auto"), TargetSet.NVPTX));
  }

  @ParameterizedTest(name = "{0} {1} [{2}]")
  @MethodSource("ltoBuilds")
  void ltoBuildBehavesLikeStock(
      String name, List<String> flags, TargetSet targets, @TempDir Path work) throws IOException {
    CorpusProgram program = withFlags(Corpus.program(name), flags);
    BuildResult stockBuild =
        toolchain.build(program, targets, ToolDir.stock(), work.resolve("stock"));
    ToolDir ours = oursTools(work.resolve("tools"), targets, true, Optional.empty());
    BuildResult oursBuild = toolchain.build(program, targets, ours, work.resolve("ours"));
    assertBuilt(stockBuild);
    RunResult stock = toolchain.run(stockBuild);
    assertStockRan(stock);
    assertBuilt(oursBuild);
    assertSameBehaviour(stock, toolchain.run(oursBuild));
  }

  static Stream<Arguments> saveTempsBuilds() {
    return Stream.of(
        Arguments.of(List.of("-O2", "-flto", "-flto-partition=max"), TargetSet.NVPTX),
        Arguments.of(List.of("-O2", "-flto=2", "-flto-partition=max"), TargetSet.both("gfx906")));
  }

  /**
   * {@code -save-temps}: stock and offlink's lto-wrapper (both with stock mkoffload, so only the
   * lto-wrapper differs) build in folders with the same relative layout and a relative {@code -B
   * tools/}, so no path differs. Every {@code prog.*} file GCC keeps must exist in both with the
   * same name and bytes, LTRANS objects ({@code prog.ltrans<N>.ltrans.o}) included. Only the WPA
   * partitions {@code prog.ltrans<N>.o} are compared by name alone: lto1 gives their sections
   * random ids, so they differ between two stock runs too.
   */
  @ParameterizedTest(name = "{0} [{1}]")
  @MethodSource("saveTempsBuilds")
  void saveTempsKeepsGccsFilesAndIdenticalLtransObjects(
      List<String> flags, TargetSet targets, @TempDir Path work) throws IOException {
    // Each compile names its LTO sections with a random id unless -frandom-seed; the plugin's
    // prog.res lists those ids, so both builds need the same seed to compare their files.
    CorpusProgram program =
        withFlags(Corpus.program("c_declare_target_tus"), plus(flags, "-frandom-seed=offlink"));
    List<String> saveTemps = List.of("-save-temps");
    Path stockDir = work.resolve("s/build");
    Path oursDir = work.resolve("o/build");
    ToolDir stockTools = relativeTools(stockDir, targets, false);
    ToolDir oursTools = relativeTools(oursDir, targets, true);
    BuildResult stockBuild = toolchain.build(program, targets, stockTools, stockDir, saveTemps);
    BuildResult oursBuild = toolchain.build(program, targets, oursTools, oursDir, saveTemps);
    assertBuilt(stockBuild);
    assertBuilt(oursBuild);
    TreeSet<String> stockFiles = keptFiles(stockDir);
    TreeSet<String> oursFiles = keptFiles(oursDir);
    assertTrue(
        stockFiles.stream().anyMatch(f -> f.matches("prog\\.ltrans[0-9]+\\.ltrans\\.o")),
        () -> "stock kept LTRANS objects: " + stockFiles);
    List<Executable> checks = new ArrayList<>();
    checks.add(() -> assertEquals(stockFiles, oursFiles, "the -save-temps files kept"));
    for (String file : stockFiles) {
      // In a PIE link offlink writes its own position-independent __OFFLOAD_TABLE__ object in
      // place of GCC's crtoffloadtable.o (no DT_TEXTREL): same name, other bytes by design.
      boolean ourTable = file.equals("prog.crtoffloadtable.o");
      if (oursFiles.contains(file) && !WPA_PARTITION.matcher(file).matches() && !ourTable) {
        checks.add(() -> assertSameBytes(stockDir.resolve(file), oursDir.resolve(file)));
      }
    }
    assertAll("-save-temps " + flags + " [" + targets + "]", checks);
    RunResult stock = toolchain.run(stockBuild);
    assertStockRan(stock);
    assertSameBehaviour(stock, toolchain.run(oursBuild));
  }

  /**
   * {@code make -j2}: the link recipe is prefixed with {@code +}, so make hands the jobserver to
   * gcc; with {@code -flto=jobserver} both lto-wrappers must say {@code Using make jobserver}, warn
   * about nothing, and build the same program.
   */
  @Test
  void makeJobserverReachesTheLink(@TempDir Path work) throws IOException {
    CorpusProgram program = withFlags(Corpus.program("c_declare_target_tus"), List.of());
    TargetSet targets = TargetSet.NVPTX;
    RunResult stock = makeBuild(program, targets, work.resolve("s/build"), false);
    RunResult ours = makeBuild(program, targets, work.resolve("o/build"), true);
    assertStockRan(stock);
    assertSameBehaviour(stock, ours);
  }

  private RunResult makeBuild(CorpusProgram program, TargetSet targets, Path dir, boolean offlink)
      throws IOException {
    Files.createDirectories(dir);
    for (String source : program.sources()) {
      Files.copy(program.directory().resolve(source), dir.resolve(source));
    }
    Files.copy(program.directory().resolve("shared.h"), dir.resolve("shared.h"));
    ToolDir tools = relativeTools(dir, targets, offlink);
    String objects = String.join(" ", program.sources()).replace(".c", ".o");
    String flags = "-O2 -flto=jobserver -flto-partition=max -fopenmp";
    String makefile =
        "CC = gcc-12\n"
            + "CFLAGS = "
            + flags
            + "\n"
            + "prog: "
            + objects
            + "\n"
            + "\t+$(CC) -v "
            + String.join(" ", tools.driverOptions())
            + " "
            + String.join(" ", targets.driverOptions())
            + " $(CFLAGS) $^ -o $@\n"
            + "%.o: %.c\n"
            + "\t$(CC) $(CFLAGS) -c $< -o $@\n";
    Files.writeString(dir.resolve("Makefile"), makefile);
    CommandResult make = toolchain.step(List.of("make", "-j2"), tools, dir);
    String log = make.stdout() + make.stderr();
    String what = (offlink ? "offlink" : "stock") + " make -j2";
    assertEquals(0, make.exitStatus(), () -> what + " failed:\n" + log);
    assertTrue(log.contains("Using make jobserver"), () -> what + ": no jobserver:\n" + log);
    assertFalse(log.contains("jobserver is not available"), () -> what + ":\n" + log);
    assertFalse(log.contains("serial compilation"), () -> what + ":\n" + log);
    BuildResult build =
        new BuildResult(
            program,
            targets,
            tools,
            dir,
            0,
            "",
            log,
            Optional.of(dir.resolve(Toolchain.EXECUTABLE)));
    return toolchain.run(build);
  }

  /**
   * Stock's run of an LTO build: exit 0, the corpus output and one registration per expected image
   * and target. The host table sizes are not checked against the corpus: with several LTRANS
   * partitions GCC 12 emits the whole host offload table once per partition (observed: 10
   * partitions of a 1-function, 2-variable program register host funcs=10 vars=20 against a device
   * table of 1 and 2), so only the comparison with stock judges them.
   */
  private static void assertStockRan(RunResult run) {
    BuildResult build = run.build();
    assertEquals(0, run.exitStatus(), () -> build.describe() + ": exit; stderr:\n" + run.stderr());
    assertEquals(build.program().expectedOutput(), run.stdout(), () -> build.describe());
    assertEquals(
        build.program().expectedImages().size() * build.targets().targets().size(),
        run.dump().registered().size(),
        () -> build.describe() + ": registrations\n" + run.dump().text());
  }

  /**
   * A tool folder {@code tools/} inside {@code buildDir}, named relatively ({@code -B tools/}): a
   * pass-through of stock's lto-wrapper or offlink's, with stock mkoffload.
   */
  private static ToolDir relativeTools(Path buildDir, TargetSet targets, boolean offlink)
      throws IOException {
    String label = offlink ? "offlink lto-wrapper" : "stock via -B";
    ToolDir tools =
        oursOrStock(buildDir.resolve("tools"), targets, offlink, false, Optional.of(label));
    return new ToolDir(tools.label(), Optional.of(Path.of("tools")));
  }

  private static ToolDir oursTools(
      Path dir, TargetSet targets, boolean ourMkoffload, Optional<String> label)
      throws IOException {
    return oursOrStock(dir, targets, true, ourMkoffload, label);
  }

  private static ToolDir oursOrStock(
      Path dir,
      TargetSet targets,
      boolean ourLtoWrapper,
      boolean ourMkoffload,
      Optional<String> label)
      throws IOException {
    ToolDirBuilder builder =
        new ToolDirBuilder(
            dir,
            toolchain.stockLibexec(),
            label.orElse(
                "offlink lto-wrapper+" + (ourMkoffload ? "mkoffload" : "stock mkoffload")));
    if (ourLtoWrapper) {
      builder.offlinkLtoWrapper(dist);
    } else {
      builder.passThroughLtoWrapper();
    }
    for (OffloadTarget target : targets.targets()) {
      if (ourMkoffload) {
        builder.offlinkMkoffload(target, dist);
      } else {
        builder.stockMkoffload(target);
      }
    }
    return builder.build();
  }

  /** The {@code prog.*} files a build left in its folder (what -save-temps kept). */
  private static TreeSet<String> keptFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith(Toolchain.EXECUTABLE + "."))
          .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
    }
  }

  private static void assertSameBytes(Path stock, Path ours) throws IOException {
    byte[] expected = Files.readAllBytes(stock);
    byte[] actual = Files.readAllBytes(ours);
    int first = java.util.Arrays.mismatch(expected, actual);
    assertEquals(
        -1,
        first,
        () ->
            ours.getFileName()
                + " differs from stock's at byte "
                + first
                + " (sizes "
                + expected.length
                + " / "
                + actual.length
                + ")");
  }

  /** {@code p} with {@code extra} added to the options of every compile and link. */
  static CorpusProgram withFlags(CorpusProgram p, List<String> extra) {
    return p.with(extra, List.of());
  }

  private static List<String> plus(List<String> list, String... more) {
    List<String> all = new ArrayList<>(list);
    all.addAll(List.of(more));
    return all;
  }
}
