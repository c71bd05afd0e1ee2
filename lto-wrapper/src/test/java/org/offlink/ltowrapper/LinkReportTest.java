package org.offlink.ltowrapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.ltowrapper.io.OptsSectionName;
import org.offlink.ltowrapper.report.proto.LinkReport;
import org.offlink.ltowrapper.report.proto.SubcommandKind;
import org.offlink.ltowrapper.report.proto.TargetStatus;

/** The link report of whole fake runs ({@code OFFLINK_REPORT}): content, formats, failures. */
class LinkReportTest {
  @TempDir Path dir;

  /** An offload + host LTO link: nvptx built, amdgcn dropped, x.o both LTO and offload input. */
  private Harness mixedHarness() throws IOException {
    Harness h = new Harness(dir);
    h.env.put("COLLECT_GCC_OPTIONS", "'-fopenmp' '-o' 'x' '-dumpdir' 'x.'");
    h.env.put("OFFLOAD_TARGET_NAMES", "nvptx-none:amdgcn-amdhsa");
    h.env.put("OFFLOAD_TARGET_DEFAULT", "1");
    h.env.put("COMPILER_PATH", h.mkoffload("gcc", "nvptx-none") + ":/nonexistent/");
    h.env.put("HOME", "/home/nobody"); // not recorded
    // Serial: sub-commands are recorded as they finish, and the golden file fixes one order.
    h.env.put("OFFLINK_FLAGS", "--wrapper=elf --serial-offload");
    Files.createDirectories(dir.resolve("lib"));
    Files.writeString(dir.resolve("lib/crtoffloadtable.o"), "table");
    h.env.put("LIBRARY_PATH", dir.resolve("lib") + "/");
    h.object("x.o", OptsSectionName.OFFLOAD, LtoWrapperGoldenTest.OFFLOAD_OPTS);
    h.object("x.o", OptsSectionName.HOST_LTO, "'-fno-openmp' '-O2' '-flto'");
    h.object("libx.a@0x53c", OptsSectionName.HOST_LTO, "'-fno-openmp' '-O2' '-flto'");
    h.write("x.ofldlist", "1\nx.o\n");
    return h;
  }

  private int runMixed(Harness h) {
    return h.run(
        LtoWrapperGoldenTest.produce(1),
        "-fresolution=x.res",
        "-flinker-output=pie",
        "-foffload-objects=x.ofldlist",
        "x.o",
        "libx.a@0x53c");
  }

  /** The JSON with the run directory as $DIR and every duration as 0. */
  private String normalisedJson(Harness h, String name) throws IOException {
    String json = Files.readString(dir.resolve(name));
    return h.normalise(json).replaceAll("\"(duration|start)\": \"[0-9.]+s\"", "\"$1\": \"0s\"");
  }

  @Test
  void jsonReportOfAMixedLinkMatchesGolden() throws IOException {
    Harness h = mixedHarness();
    h.env.put("OFFLINK_REPORT", "r.json");
    assertEquals(0, runMixed(h), h.err());
    Golden.check("report-mixed.json", normalisedJson(h, "r.json"));
  }

  @Test
  void binaryReportRoundTripsAndLeavesStdoutAlone() throws IOException {
    Harness plain = mixedHarness();
    assertEquals(0, runMixed(plain));
    String stdoutWithout = plain.out();
    Files.walk(dir.resolve("tmp")).skip(1).map(Path::toFile).forEach(java.io.File::delete);

    Harness h = mixedHarness();
    h.env.put("OFFLINK_REPORT", "r.pb");
    assertEquals(0, runMixed(h));
    assertEquals(stdoutWithout, h.out(), "the report changes nothing on stdout");
    LinkReport r = LinkReport.parseFrom(Files.readAllBytes(dir.resolve("r.pb")));
    assertEquals(1, r.getSchemaVersion());
    assertEquals(LtoWrapper.VERSION, r.getOfflinkVersion());
    assertEquals(h.out.toString().lines().toList(), r.getOutputLinesList());
    assertEquals(TargetStatus.TARGET_STATUS_OK, r.getTargets(0).getStatus());
    assertEquals(TargetStatus.TARGET_STATUS_DROPPED, r.getTargets(1).getStatus());
    assertEquals(
        java.util.List.of(
            SubcommandKind.SUBCOMMAND_KIND_MKOFFLOAD,
            SubcommandKind.SUBCOMMAND_KIND_WPA,
            SubcommandKind.SUBCOMMAND_KIND_LTRANS),
        r.getSubcommandsList().stream().map(s -> s.getKind()).toList());
    assertTrue(
        r.getSubcommands(0).getArgvList().contains("-foffload-abi=lp64"),
        "the report spells out the response file");
  }

  @Test
  void failedTargetAndFatalErrorAreReported() throws IOException {
    Harness h = mixedHarness();
    h.env.put("OFFLINK_REPORT", "fail.json");
    // GCC 12's own behaviour: a failing mkoffload is fatal (offlink's default drops it with
    // a warning under OFFLOAD_TARGET_DEFAULT).
    h.env.put("OFFLINK_FLAGS", "--wrapper=elf --serial-offload --offload-failure=fatal");
    assertEquals(1, h.run((argv, cwd) -> 3, "-foffload-objects=x.ofldlist", "x.o"));
    String json = Files.readString(dir.resolve("fail.json"));
    LinkReport.Builder b = LinkReport.newBuilder();
    com.google.protobuf.util.JsonFormat.parser().merge(json, b);
    LinkReport r = b.build();
    assertEquals(1, r.getExitStatus());
    assertTrue(r.getError().endsWith("mkoffload returned 3 exit status"), r.getError());
    assertEquals(TargetStatus.TARGET_STATUS_FAILED, r.getTargets(0).getStatus());
    assertEquals(r.getError(), r.getTargets(0).getError());
    // Targets are built one after the other and all are tried, as in GCC.
    assertEquals(TargetStatus.TARGET_STATUS_DROPPED, r.getTargets(1).getStatus());
    assertEquals(3, r.getSubcommands(0).getExitStatus());
    assertEquals(0, r.getOutputLinesCount());
  }

  @Test
  void unwritableReportGivesOneWarningAndTheSameResult() throws IOException {
    Harness h = mixedHarness();
    h.env.put("OFFLINK_REPORT", "no/such/dir/r.json");
    assertEquals(0, runMixed(h));
    assertFalse(h.out().isEmpty());
    assertEquals(
        "lto-wrapper: warning: cannot write the link report $DIR/no/such/dir/r.json: No such"
            + " file or directory\n",
        h.err());
  }

  @Test
  void parallelTargetsAreAllRecorded() throws IOException {
    Harness h = mixedHarness();
    h.env.put("OFFLINK_PARALLEL_OFFLOAD", "1");
    h.env.put(
        "COMPILER_PATH",
        h.mkoffload("gcc", "nvptx-none") + ":" + h.mkoffload("gcc", "amdgcn-amdhsa"));
    h.env.put("OFFLINK_REPORT", "p.pb");
    assertEquals(0, runMixed(h), h.err());
    LinkReport r = LinkReport.parseFrom(Files.readAllBytes(dir.resolve("p.pb")));
    assertEquals(
        java.util.List.of("nvptx-none", "amdgcn-amdhsa"),
        r.getTargetsList().stream().map(t -> t.getName()).toList(),
        "targets in OFFLOAD_TARGET_NAMES order whatever order they finished in");
    for (var t : r.getTargetsList()) {
      assertEquals(TargetStatus.TARGET_STATUS_OK, t.getStatus(), t.toString());
      assertTrue(r.getOutputLinesList().contains(t.getObject()), t.toString());
    }
    assertEquals(
        2,
        r.getSubcommandsList().stream()
            .filter(c -> c.getKind() == SubcommandKind.SUBCOMMAND_KIND_MKOFFLOAD)
            .count());
  }

  @Test
  void noVariableNoReport() throws IOException {
    Harness h = mixedHarness();
    assertEquals(0, runMixed(h));
    try (var files = Files.list(dir)) {
      assertTrue(files.noneMatch(p -> p.toString().endsWith(".json")));
    }
  }
}
