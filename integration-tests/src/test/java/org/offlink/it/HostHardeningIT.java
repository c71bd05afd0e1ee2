package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.offlink.it.RegistrationAssertions.assertBuilt;
import static org.offlink.it.RegistrationAssertions.assertSameBehaviour;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.offlink.bridge.process.CommandResult;

/**
 * Host hardening options the accel compilers cannot honour (issue 12, item 4), with the real GCC 12
 * and offlink's lto-wrapper and mkoffload against stock GCC in the same run:
 *
 * <ul>
 *   <li>{@code -fcf-protection[=branch|return]}: stock fails the link in the accel lto1; offlink
 *       links with one warning naming the option, and the program registers exactly what stock's
 *       build <em>without</em> the flag registers (the spy). {@code
 *       OFFLINK_FLAGS=--keep-host-hardening} gives stock's failure back, with stock's lto1 error.
 *   <li>{@code -fstack-protector-strong}/{@code -all} and {@code -D_FORTIFY_SOURCE=2}: both fail,
 *       as stock, with the accel linker's error, plus one {@code lto-wrapper: note:} naming the
 *       fix; the stack protector fix is checked to work, and the tempting {@code
 *       -foffload-options=-fno-stack-protector} to fail in stock.
 * </ul>
 */
class HostHardeningIT {
  private static final List<TargetSet> TARGET_SETS =
      List.of(TargetSet.NVPTX, TargetSet.gcn("gfx906"), TargetSet.both("gfx906"));

  /** A device printf, which glibc's fortified stdio.h turns into {@code __printf_chk}. */
  private static final String DEVICE_PRINTF =
      "#include <stdio.h>\nint main(void) {\n  int s = 0;\n#pragma omp target map(tofrom: s)\n"
          + "  {\n    for (int i = 0; i < 10; i++) s += i;\n    printf(\"device %d\\n\", s);\n"
          + "  }\n  printf(\"%d\\n\", s);\n  return 0;\n}\n";

  @TempDir static Path scratch;
  private static Toolchain toolchain;
  private static Path dist;

  /** Stock's build of {@code c_target_scalar} without any hardening flag, per target set. */
  private static final Map<String, RunResult> PLAIN_STOCK = new HashMap<>();

  @BeforeAll
  static void setUp() throws IOException {
    dist = Toolchain.offlinkDist();
    toolchain = Toolchain.create(scratch);
  }

  static Stream<Arguments> cfProtection() {
    return perTargetSet(
        List.of(
            List.of("-fcf-protection", "-fcf-protection=full"),
            List.of("-fcf-protection=branch", "-fcf-protection=branch"),
            List.of("-fcf-protection=return", "-fcf-protection=return")));
  }

  /** Each row once for every target set, in {@link #TARGET_SETS} order, the set appended. */
  private static Stream<Arguments> perTargetSet(List<List<String>> rows) {
    return TARGET_SETS.stream()
        .flatMap(
            targets -> rows.stream().map(row -> Arguments.of(row.get(0), row.get(1), targets)));
  }

  @ParameterizedTest(name = "{0} [{2}]")
  @MethodSource("cfProtection")
  void cfProtectionIsLeftOutOfTheOffloadCompile(
      String flag, String canonical, TargetSet targets, @TempDir Path work) throws IOException {
    CorpusProgram program = HostLtoIT.withFlags(Corpus.program("c_target_scalar"), List.of(flag));
    String rejected = "lto1: error: '" + canonical + "' is not supported for this target";

    BuildResult stock = toolchain.build(program, targets, ToolDir.stock(), work.resolve("stock"));
    assertFalse(stock.succeeded(), () -> "stock GCC 12 links " + flag + "?\n" + stock.log());
    assertTrue(stock.failureDiagnostics().contains(rejected), stock::failureDiagnostics);

    ToolDir ours = oursTools(work.resolve("tools"), targets);
    BuildResult dropped = toolchain.build(program, targets, ours, work.resolve("ours"));
    assertBuilt(dropped);
    List<String> warnings = lines(dropped.log(), "lto-wrapper: warning: ");
    assertEquals(1, warnings.size(), dropped::log);
    assertTrue(warnings.get(0).contains("'" + canonical + "'"), warnings.get(0));
    assertTrue(warnings.get(0).contains("OFFLINK_FLAGS=--keep-host-hardening"), warnings.get(0));
    assertSameBehaviour(plainStock(targets), toolchain.run(dropped));

    ToolDir keep = ours.withEnvironment("OFFLINK_FLAGS", "--keep-host-hardening");
    BuildResult kept = toolchain.build(program, targets, keep, work.resolve("keep"));
    assertFalse(kept.succeeded(), kept::log);
    assertTrue(kept.failureDiagnostics().contains(rejected), kept::failureDiagnostics);
    assertEquals(List.of(), lines(kept.log(), "lto-wrapper: warning: "), kept::log);
  }

  static Stream<Arguments> stackProtector() {
    return perTargetSet(
        List.of(
            List.of("-fstack-protector-strong", "c_map_clauses"),
            List.of("-fstack-protector-all", "c_target_scalar")));
  }

  @ParameterizedTest(name = "{0} {1} [{2}]")
  @MethodSource("stackProtector")
  void stackProtectorFailsAsStockWithTheFix(
      String flag, String name, TargetSet targets, @TempDir Path work) throws IOException {
    CorpusProgram program = HostLtoIT.withFlags(Corpus.program(name), List.of(flag));
    BuildResult stock = toolchain.build(program, targets, ToolDir.stock(), work.resolve("stock"));
    BuildResult ours =
        toolchain.build(
            program, targets, oursTools(work.resolve("tools"), targets), work.resolve("ours"));
    assertFailsAsStockWithNote(
        stock.succeeded(),
        stock.failureDiagnostics(),
        ours.succeeded(),
        ours.failureDiagnostics(),
        targets,
        "'__stack_chk_fail'",
        "'-fno-stack-protector'");
  }

  /**
   * The note's advice, checked: objects compiled with {@code -fno-stack-protector} link even when
   * the link line says {@code -fstack-protector-strong} (offlink and stock alike, same
   * registrations), while {@code -foffload-options=-fno-stack-protector} does not rescue stock.
   */
  @ParameterizedTest(name = "[{0}]")
  @MethodSource("targetSets")
  void stackProtectorFixFromTheNoteWorks(TargetSet targets, @TempDir Path work) throws IOException {
    CorpusProgram base = Corpus.program("c_map_clauses");
    CorpusProgram offloadOption =
        HostLtoIT.withFlags(
            base, List.of("-fstack-protector-strong", "-foffload-options=-fno-stack-protector"));
    BuildResult useless =
        toolchain.build(offloadOption, targets, ToolDir.stock(), work.resolve("useless"));
    assertFalse(useless.succeeded(), useless::log);
    assertTrue(useless.failureDiagnostics().contains("__stack_chk_fail"), useless::log);

    CorpusProgram fixed =
        base.with(List.of("-fno-stack-protector"), List.of("-fstack-protector-strong"));
    BuildResult stock = toolchain.build(fixed, targets, ToolDir.stock(), work.resolve("stock"));
    BuildResult ours =
        toolchain.build(
            fixed, targets, oursTools(work.resolve("tools"), targets), work.resolve("ours"));
    assertBuilt(stock);
    assertBuilt(ours);
    assertSameBehaviour(toolchain.run(stock), toolchain.run(ours));
  }

  @ParameterizedTest(name = "[{0}]")
  @MethodSource("targetSets")
  void fortifySourceFailsAsStockWithTheFix(TargetSet targets, @TempDir Path work)
      throws IOException {
    Files.writeString(work.resolve("p.c"), DEVICE_PRINTF);
    List<String> argv = new ArrayList<>(List.of("gcc-12", "-O2", "-D_FORTIFY_SOURCE=2"));
    argv.add("-fopenmp");
    argv.addAll(targets.driverOptions());
    argv.addAll(List.of("p.c", "-o", "prog"));
    CommandResult stock = toolchain.step(argv, ToolDir.stock(), work);
    ToolDir tools = oursTools(work.resolve("tools"), targets);
    List<String> oursArgv = new ArrayList<>(argv);
    oursArgv.addAll(1, tools.driverOptions());
    CommandResult ours = toolchain.step(oursArgv, tools, work);
    assertFailsAsStockWithNote(
        stock.succeeded(),
        stock.stderr(),
        ours.succeeded(),
        ours.stderr(),
        targets,
        "'__printf_chk'",
        "'-U_FORTIFY_SOURCE'");
  }

  static Stream<TargetSet> targetSets() {
    return TARGET_SETS.stream();
  }

  /**
   * Both links fail; every accel linker error stock printed, ours printed too; ours adds one note
   * (per failing image, at least one) naming {@code symbol} and the {@code fix}, stock none.
   */
  private static void assertFailsAsStockWithNote(
      boolean stockOk,
      String stockErr,
      boolean oursOk,
      String oursErr,
      TargetSet targets,
      String symbol,
      String fix) {
    assertFalse(stockOk, () -> "stock GCC 12 links it? [" + targets + "]");
    assertFalse(oursOk, () -> "offlink links it? [" + targets + "]\n" + oursErr);
    List<String> stockErrors = accelLinkErrors(stockErr);
    List<String> oursErrors = accelLinkErrors(oursErr);
    assertFalse(stockErrors.isEmpty(), stockErr);
    assertFalse(oursErrors.isEmpty(), oursErr);
    if (targets.targets().size() == 1) {
      // With two targets stock stops at the first; offlink builds both at once and either may
      // fail first.
      assertEquals(stockErrors.get(0), oursErrors.get(0), oursErr);
    }
    assertEquals(List.of(), lines(stockErr, "lto-wrapper: note: "));
    List<String> notes = lines(oursErr, "lto-wrapper: note: ");
    assertFalse(notes.isEmpty(), oursErr);
    assertTrue(notes.size() <= targets.targets().size(), oursErr);
    for (String note : notes) {
      assertTrue(note.contains(symbol) && note.contains(fix), note);
    }
  }

  /** The accel linkers' own error lines (nvptx-ld: "unresolved symbol", lld: "undefined"). */
  private static List<String> accelLinkErrors(String stderr) {
    return stderr
        .lines()
        .filter(l -> l.startsWith("unresolved symbol ") || l.startsWith("ld: error: undefined"))
        .toList();
  }

  private static List<String> lines(String text, String prefix) {
    return text.lines().filter(l -> l.startsWith(prefix)).toList();
  }

  private static synchronized RunResult plainStock(TargetSet targets) throws IOException {
    RunResult cached = PLAIN_STOCK.get(targets.label());
    if (cached != null) {
      return cached;
    }
    CorpusProgram program = Corpus.program("c_target_scalar");
    Path dir = scratch.resolve("plain-" + targets.label());
    BuildResult build = toolchain.build(program, targets, ToolDir.stock(), dir);
    assertBuilt(build);
    RunResult run = toolchain.run(build);
    assertEquals(0, run.exitStatus(), run::stderr);
    assertEquals(program.expectedOutput(), run.stdout());
    assertEquals(targets.targets().size(), run.dump().registered().size(), run.dump()::text);
    PLAIN_STOCK.put(targets.label(), run);
    return run;
  }

  private static ToolDir oursTools(Path dir, TargetSet targets) throws IOException {
    ToolDirBuilder builder =
        new ToolDirBuilder(dir, toolchain.stockLibexec(), "offlink lto-wrapper+mkoffload");
    builder.offlinkLtoWrapper(dist);
    for (OffloadTarget target : targets.targets()) {
      builder.offlinkMkoffload(target, dist);
    }
    return builder.build();
  }
}
