package org.offlink.ltowrapper.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.OfflinkFlags;
import org.offlink.bridge.image.GcnImage;
import org.offlink.bridge.image.GcnKernel;
import org.offlink.bridge.image.NvptxFunction;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.bridge.mkoffload.MkoffloadListener;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.ltowrapper.cache.CacheRequest;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.plan.LinkArgument;
import org.offlink.ltowrapper.plan.LinkPlan;
import org.offlink.ltowrapper.plan.LinkerOutput;
import org.offlink.ltowrapper.report.proto.LinkReport;
import org.offlink.ltowrapper.run.DumpNames;
import org.offlink.runtime.LinkScope;

/**
 * A report recorded from a scripted run with a fake clock (every tick 1 ms), in-process mkoffload
 * images for both targets included: JSON golden, binary round trip, file naming and atomic write.
 */
class LinkRecorderTest {
  @TempDir Path dir;

  private static final Path CWD = Path.of("/work/link");

  private static LinkPlan options(Map<String, String> env) {
    LinkPlan.Settings settings =
        new LinkPlan.Settings(
            Optional.of("a.out"),
            false,
            false,
            false,
            false,
            Optional.empty(),
            DumpNames.of(null, "a.out"),
            new LinkerOutput(Optional.empty(), false),
            Optional.empty(),
            env.containsKey("OFFLOAD_TARGET_NAMES")
                ? List.of(env.get("OFFLOAD_TARGET_NAMES").split(":", -1))
                : List.of(),
            false,
            Optional.ofNullable(env.get("COMPILER_PATH")),
            Optional.empty(),
            Optional.empty(),
            Optional.of(false),
            OfflinkFlags.NONE,
            false,
            new CacheRequest.Off(Optional.empty()),
            Optional.ofNullable(env.get("OFFLINK_REPORT"))
                .filter(n -> !n.isEmpty())
                .map(CWD::resolve));
    return new LinkPlan(
        "/usr/lib/gcc/x86_64-linux-gnu/12/lto-wrapper",
        List.of("-foffload-objects=a.ofldlist", "a.o"),
        "/usr/bin/gcc-12",
        List.of(),
        Optional.of("a.ofldlist"),
        List.of(new LinkArgument("a.o", Optional.empty())),
        env,
        settings);
  }

  /** Plays one in-process offload link for nvptx and gcn into a recorder. */
  static LinkReport scriptedRun(Path cwd) {
    Map<String, String> env =
        Map.of(
            "COLLECT_GCC", "/usr/bin/gcc-12",
            "OFFLOAD_TARGET_NAMES", "nvptx-none:amdgcn-amdhsa",
            "COMPILER_PATH", "/opt/offlink/libexec/offlink/",
            "SECRET_TOKEN", "not recorded");
    AtomicLong clock = new AtomicLong(1_000_000_000L);
    LinkRecorder r =
        LinkRecorder.recording(
            cwd.resolve("r.json"),
            options(env),
            cwd,
            "offlink test",
            () -> clock.addAndGet(1_000_000));
    InputFile a = InputFile.parse("a.o", cwd);
    r.offloadInput(a);
    r.inputOptions(a, true, List.of());
    r.offloadInput(InputFile.parse("liba.a@0x10", cwd));
    MkoffloadListener l = r.mkoffloadListener();
    String nvMk = "/opt/offlink/libexec/offlink//accel/nvptx-none/mkoffload";
    long start = r.now();
    r.mkoffloadInProcess(OffloadTarget.NVPTX);
    l.commandFinished(
        OffloadTarget.NVPTX,
        Command.of(List.of("/usr/bin/gcc-12", "-dumpversion"), env, cwd).asProbe(),
        result(List.of("/usr/bin/gcc-12", "-dumpversion"), 0, 2));
    List<String> accel = List.of("x86_64-linux-gnu-accel-nvptx-none-gcc-12", "-o", "a.ptx");
    l.commandFinished(
        OffloadTarget.NVPTX,
        Command.of(accel, env, cwd).as(Command.Role.ACCEL_COMPILER),
        result(accel, 0, 40));
    r.imageBuilt(
        cwd.resolve("a.target.o"),
        new NvptxImage(
            List.of("// ptx one".getBytes(StandardCharsets.UTF_8), new byte[] {'x'}),
            List.of("counter"),
            List.of(new NvptxFunction("main$_omp_fn$0", 0, 0, 0))));
    r.commandFinished(
        ChildKind.mkoffload("nvptx-none"),
        List.of(nvMk, "-o", "a.target.o", "a.o"),
        0,
        start,
        Duration.ofMillis(50),
        "");
    r.targetDone("nvptx-none", Optional.of("a.target.o"));
    r.mkoffloadInProcess(OffloadTarget.AMDGCN);
    List<String> host = List.of("/usr/bin/gcc-12", "-c", "a.c");
    l.commandFinished(
        OffloadTarget.AMDGCN,
        Command.of(host, env, cwd).as(Command.Role.HOST_COMPILER),
        result(host, 1, 7));
    r.imageBuilt(
        cwd.resolve("b.target.o"),
        new GcnImage(
            new byte[] {0x7f, 'E', 'L', 'F'},
            List.of(
                new GcnKernel("_init_array", 0, 0, 0, 10, 4),
                new GcnKernel("main._omp_fn.0", 1, 2, 3, 24, 8)),
            2));
    r.commandFinished(
        ChildKind.mkoffload("amdgcn-amdhsa"),
        List.of("/opt/offlink/libexec/offlink//accel/amdgcn-amdhsa/mkoffload", "-o", "b.target.o"),
        1,
        r.now(),
        Duration.ofMillis(9),
        "");
    r.targetFailed(
        "amdgcn-amdhsa", "%<mkoffload%> returned 1 exit status"); // GCC quote markup goes
    r.fatal("%<mkoffload%> returned 1 exit status");
    return r.finish(1);
  }

  private static CommandResult result(List<String> argv, int status, long millis) {
    return new CommandResult(argv, status, "", "", Duration.ofMillis(millis));
  }

  @Test
  void jsonMatchesGolden() throws IOException {
    byte[] json = LinkReportWriter.encode(scriptedRun(CWD), ReportFormat.JSON);
    check("report-images.json", new String(json, StandardCharsets.UTF_8));
  }

  @Test
  void sameRunSameBytes() {
    for (ReportFormat format : ReportFormat.values()) {
      assertArrayEquals(
          LinkReportWriter.encode(scriptedRun(CWD), format),
          LinkReportWriter.encode(scriptedRun(CWD), format),
          format.name());
    }
  }

  @Test
  void binaryFileRoundTrips() throws IOException {
    LinkReport report = scriptedRun(dir);
    Path file = dir.resolve("link.report");
    LinkReportWriter.write(LinkScope.withUmask(022), file, report);
    assertEquals(report, LinkReport.parseFrom(Files.readAllBytes(file)));
    try (var files = Files.list(dir)) {
      assertEquals(List.of(file), files.toList(), "no temporary file left behind");
    }
  }

  @Test
  void formatFollowsTheName() {
    assertEquals(ReportFormat.JSON, ReportFormat.forFile(Path.of("/x/r.json")));
    assertEquals(ReportFormat.JSON, ReportFormat.forFile(Path.of("R.JSON")));
    assertEquals(ReportFormat.BINARY, ReportFormat.forFile(Path.of("r.pb")));
    assertEquals(ReportFormat.BINARY, ReportFormat.forFile(Path.of("json")));
  }

  @Test
  void disabledRecorderRecordsNothing() {
    LinkRecorder r = LinkRecorder.forRun(options(Map.of("COLLECT_GCC", "gcc")), CWD, "v");
    assertFalse(r.enabled());
    r.inputOptions(InputFile.parse("a.o", CWD), true, List.of("'-O2'"));
    r.commandFinished(ChildKind.lto(), List.of("gcc"), 0, r.now(), Duration.ZERO, "");
    List<String> warnings = new ArrayList<>();
    r.write(LinkScope.withUmask(022), 0, warnings::add);
    assertEquals(List.of(), warnings);
    assertThrows(IllegalStateException.class, () -> r.finish(0));
  }

  @Test
  void emptyVariableAsksForNothing() {
    Map<String, String> env = Map.of("COLLECT_GCC", "gcc", "OFFLINK_REPORT", "");
    assertFalse(LinkRecorder.forRun(options(env), CWD, "v").enabled());
  }

  private static void check(String name, String actual) throws IOException {
    if (Boolean.getBoolean("golden.update")) {
      Files.writeString(Path.of("src/test/resources/golden", name), actual);
      return;
    }
    try (InputStream in = LinkRecorderTest.class.getResourceAsStream("/golden/" + name)) {
      if (in == null) {
        throw new AssertionError("missing golden file " + name + "; actual:\n" + actual);
      }
      assertEquals(new String(in.readAllBytes(), StandardCharsets.UTF_8), actual, name);
    }
  }
}
