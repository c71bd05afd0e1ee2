package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.offlink.it.RegistrationAssertions.assertSameBehaviour;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The build-flags matrix of issue 12: one program per corpus family (C, C++, Fortran; OpenMP,
 * OpenACC), each under the flag sets distributions build packages with, each case linked by stock
 * GCC 12 and by offlink (lto-wrapper and mkoffload) in the same run. The target sets rotate so that
 * every program and every flag set meets nvptx, gfx906 and both.
 *
 * <p>Each case compiles once, links with stock in {@code build/}, moves that folder aside, puts the
 * same objects back and links with offlink in the same {@code build/} (so paths recorded in the
 * images and the DWARF are equal). Then: the same link outcome; the same exit status, output and
 * registrations (spy); the same {@code .debug_*} section names and {@code .debug_info} unit count
 * in the host program; and nothing left in offlink's private TMPDIR.
 */
class BuildFlagsMatrixIT {
  /** One row of the matrix: options for every compile and link, and for the links only. */
  record FlagSet(String name, List<String> flags, List<String> linkOnly) {
    /** The flags with {@code {build}} replaced by the build folder. */
    List<String> flags(Path build) {
      return flags.stream().map(f -> f.replace("{build}", build.toString())).toList();
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static final List<FlagSet> FLAG_SETS =
      List.of(
          new FlagSet("-g -flto", List.of("-g", "-flto"), List.of()),
          new FlagSet(
              "ubuntu -g -O2 -flto=auto -ffat-lto-objects",
              List.of("-g", "-O2", "-flto=auto", "-ffat-lto-objects"),
              List.of("-Wl,-Bsymbolic-functions", "-Wl,-z,relro")),
          new FlagSet("-g3 -O0", List.of("-g3", "-O0"), List.of()),
          new FlagSet("-g -O2 -flto=2", List.of("-g", "-O2", "-flto=2"), List.of()),
          new FlagSet(
              "-g -flto -fno-pie -no-pie", List.of("-g", "-flto", "-fno-pie"), List.of("-no-pie")),
          new FlagSet(
              "-O3 -march=x86-64-v2 -g", List.of("-O3", "-march=x86-64-v2", "-g"), List.of()),
          new FlagSet(
              "debian -g -O2 -ffile-prefix-map -D_FORTIFY_SOURCE=2",
              List.of("-g", "-O2", "-ffile-prefix-map={build}=.", "-D_FORTIFY_SOURCE=2"),
              List.of("-Wl,-z,relro", "-Wl,-z,now")));

  /** One program per family; c_static_lib also brings archive members ({@code lib.a@0x..}). */
  static final List<String> PROGRAMS =
      List.of(
          "c_static_lib",
          "c_acc_routine_tus",
          "cpp_multi_tu",
          "cpp_acc",
          "f_declare_target",
          "f_acc_parallel");

  static final List<TargetSet> TARGET_SETS =
      List.of(TargetSet.NVPTX, TargetSet.gcn("gfx906"), TargetSet.both("gfx906"));

  private static final AtomicInteger PASSED = new AtomicInteger();
  private static final AtomicInteger STOCK_REFUSED = new AtomicInteger();
  private static final Map<String, Integer> STARTED_BY_TARGETS = new TreeMap<>();

  @TempDir static Path scratch;
  private static Toolchain toolchain;
  private static Path dist;

  @BeforeAll
  static void setUp() throws IOException {
    dist = Toolchain.offlinkDist();
    toolchain = Toolchain.create(scratch);
  }

  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (int p = 0; p < PROGRAMS.size(); p++) {
      for (int f = 0; f < FLAG_SETS.size(); f++) {
        TargetSet targets = TARGET_SETS.get((p + f) % TARGET_SETS.size());
        cases.add(Arguments.of(PROGRAMS.get(p), FLAG_SETS.get(f), targets));
      }
    }
    return cases.stream();
  }

  /** What one link produced. */
  private record Outcome(
      BuildResult build,
      Optional<RunResult> run,
      Optional<DebugSections> debug,
      List<String> tmp) {}

  @ParameterizedTest(name = "{0} {1} [{2}]")
  @MethodSource("cases")
  void linksRunsAndDebugsLikeStock(
      String name, FlagSet flagSet, TargetSet targets, @TempDir Path work) throws IOException {
    synchronized (STARTED_BY_TARGETS) {
      STARTED_BY_TARGETS.merge(targets.label(), 1, Integer::sum);
    }
    Path build = work.resolve("build");
    CorpusProgram program = HostLtoIT.withFlags(Corpus.program(name), flagSet.flags(build));
    Outcome stock =
        outcome(toolchain.build(program, targets, ToolDir.stock(), build, flagSet.linkOnly()));
    Path stockDir = work.resolve("stock");
    Files.move(build, stockDir);
    copyObjects(stockDir, build);
    ToolDir tools = offlinkTools(work.resolve("tools"), targets);
    Outcome ours = outcome(toolchain.relink(program, targets, tools, build, flagSet.linkOnly()));
    String what = name + " " + flagSet + " [" + targets.label() + "]";
    if (!stock.build().succeeded()) {
      STOCK_REFUSED.incrementAndGet();
    }
    List<Executable> checks = new ArrayList<>();
    checks.add(
        () ->
            assertEquals(
                stock.build().succeeded(),
                ours.build().succeeded(),
                () ->
                    what
                        + ": link outcome\nstock:\n"
                        + stock.build().log()
                        + "\nours:\n"
                        + ours.build().log()));
    checks.add(() -> assertEquals(List.of(), ours.tmp(), what + ": left in offlink's TMPDIR"));
    if (stock.run().isPresent() && ours.run().isPresent()) {
      checks.add(
          () ->
              assertEquals(
                  program.expectedOutput(), stock.run().get().stdout(), what + ": stock output"));
      checks.add(() -> assertSameBehaviour(stock.run().get(), ours.run().get()));
      checks.add(() -> assertEquals(stock.debug(), ours.debug(), what + ": host debug sections"));
    }
    assertAll(what, checks);
    PASSED.incrementAndGet();
  }

  private static Outcome outcome(BuildResult build) throws IOException {
    Optional<RunResult> run = Optional.empty();
    Optional<DebugSections> debug = Optional.empty();
    if (build.succeeded()) {
      run = Optional.of(toolchain.run(build));
      debug = Optional.of(DebugSections.of(build.executable().orElseThrow()));
    }
    List<String> left;
    try (Stream<Path> files = Files.list(build.workDirectory().resolve("tmp"))) {
      left = files.map(p -> p.getFileName().toString()).sorted().toList();
    }
    return new Outcome(build, run, debug, left);
  }

  /** The compiled objects of {@code from}, copied into the new folder {@code to}. */
  private static void copyObjects(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : files.filter(f -> f.getFileName().toString().endsWith(".o")).toList()) {
        Files.copy(f, to.resolve(f.getFileName()));
      }
    }
  }

  private static ToolDir offlinkTools(Path dir, TargetSet targets) throws IOException {
    ToolDirBuilder builder =
        new ToolDirBuilder(dir, toolchain.stockLibexec(), "offlink lto-wrapper+mkoffload")
            .offlinkLtoWrapper(dist);
    for (OffloadTarget target : targets.targets()) {
      builder.offlinkMkoffload(target, dist);
    }
    return builder.build();
  }

  /** The line the closing note quotes: how many cases ran, by target set, and how many passed. */
  @AfterAll
  static void summary() {
    int cases = STARTED_BY_TARGETS.values().stream().mapToInt(Integer::intValue).sum();
    System.out.printf(
        "build-flags matrix: %d cases (%d programs x %d flag sets; by targets %s): %d passed,"
            + " %d failed; stock refused %d links%n",
        cases,
        PROGRAMS.size(),
        FLAG_SETS.size(),
        STARTED_BY_TARGETS,
        PASSED.get(),
        cases - PASSED.get(),
        STOCK_REFUSED.get());
  }
}
