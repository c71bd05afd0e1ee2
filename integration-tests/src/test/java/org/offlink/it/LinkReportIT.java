package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.util.Durations;
import com.google.protobuf.util.JsonFormat;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.ltowrapper.report.proto.Execution;
import org.offlink.ltowrapper.report.proto.Image;
import org.offlink.ltowrapper.report.proto.ImageFormat;
import org.offlink.ltowrapper.report.proto.InputKind;
import org.offlink.ltowrapper.report.proto.LinkReport;
import org.offlink.ltowrapper.report.proto.Subcommand;
import org.offlink.ltowrapper.report.proto.SubcommandKind;
import org.offlink.ltowrapper.report.proto.Target;
import org.offlink.ltowrapper.report.proto.TargetStatus;

/**
 * {@code OFFLINK_REPORT} through the real driver: a corpus program compiled with {@code -flto} for
 * nvptx and gcn and linked by {@code gcc-12 -B <dist>/libexec/offlink/}; the JSON report must list
 * both targets built in-process, an image per target with its functions, the mkoffload, accel
 * compiler and host LTO sub-commands with durations, and the objects lto-wrapper printed.
 */
class LinkReportIT {
  @TempDir Path work;

  private static String run(Path cwd, Map<String, String> extraEnv, List<String> argv)
      throws Exception {
    ProcessBuilder pb = new ProcessBuilder(argv).directory(cwd.toFile()).redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    env.clear();
    env.put("PATH", "/usr/bin:/bin"); // no /usr/local/bin: its ptxas rejects GCC 12's PTX
    env.put("LANG", "C");
    env.put("OFFLINK_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    env.putAll(extraEnv);
    LinkMode.apply(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "timed out: " + argv);
    assertEquals(0, p.exitValue(), argv + "\n" + out);
    return out;
  }

  @Test
  void reportDescribesBothTargetsImagesAndSubcommands() throws Exception {
    CorpusProgram program = Corpus.program("c_declare_target_tus");
    Path dist = Toolchain.offlinkDist();
    Path tmp = Files.createDirectories(work.resolve("tmp"));
    List<String> argv =
        new ArrayList<>(
            List.of(
                "gcc-12",
                "-B",
                dist.resolve("libexec/offlink") + "/",
                "-fopenmp",
                "-O2",
                "-flto",
                "-foffload=nvptx-none,amdgcn-amdhsa",
                "-foffload-options=amdgcn-amdhsa=-march=gfx906",
                "-o",
                work.resolve("prog").toString()));
    for (String s : program.sources()) {
      argv.add(program.directory().resolve(s).toString());
    }
    Path reportFile = work.resolve("r.json");
    run(work, Map.of("OFFLINK_REPORT", reportFile.toString(), "TMPDIR", tmp.toString()), argv);
    assertEquals(
        program.expectedOutput(),
        run(
            work,
            Map.of("OMP_TARGET_OFFLOAD", "DEFAULT"),
            List.of(work.resolve("prog").toString())),
        "the program still runs (host fallback)");

    LinkReport.Builder b = LinkReport.newBuilder();
    JsonFormat.parser().merge(Files.readString(reportFile), b);
    LinkReport report = b.build();

    assertEquals(0, report.getExitStatus());
    assertEquals("", report.getError());
    assertTrue(Durations.toNanos(report.getDuration()) > 0);
    assertTrue(
        report.getEnvironmentList().stream().anyMatch(v -> v.getName().equals("COLLECT_GCC")));
    assertEquals(
        program.sources().size(),
        report.getInputsList().stream()
            .filter(i -> i.getKind() == InputKind.INPUT_KIND_LTO_AND_OFFLOAD)
            .count(),
        "each -flto -fopenmp object is both an LTO and an offload input: "
            + report.getInputsList());

    assertEquals(
        List.of("nvptx-none", "amdgcn-amdhsa"),
        report.getTargetsList().stream().map(Target::getName).toList());
    for (Target t : report.getTargetsList()) {
      assertEquals(TargetStatus.TARGET_STATUS_OK, t.getStatus(), t.toString());
      assertEquals(Execution.EXECUTION_IN_PROCESS, t.getExecution(), t.toString());
      assertTrue(t.getMkoffload().endsWith("accel/" + t.getName() + "/mkoffload"), t.toString());
      assertTrue(report.getOutputLinesList().contains(t.getObject()), t.getObject());
    }

    assertEquals(
        List.of("nvptx-none", "amdgcn-amdhsa"),
        report.getImagesList().stream().map(Image::getTarget).toList());
    for (Image image : report.getImagesList()) {
      assertFalse(image.getFunctionsList().isEmpty(), image.getTarget() + " has no functions");
      assertTrue(image.getImageSize() > 0 && image.getObjectSize() > image.getImageSize() / 2);
      assertEquals(64, image.getSha256().length());
      HexFormat.of().parseHex(image.getSha256());
    }
    Image ptx = report.getImages(0);
    assertEquals(ImageFormat.IMAGE_FORMAT_PTX, ptx.getFormat());
    assertTrue(ptx.getFunctionsList().stream().anyMatch(f -> f.getName().contains("_omp_fn")));
    Image hsaco = report.getImages(1);
    assertEquals(ImageFormat.IMAGE_FORMAT_HSACO, hsaco.getFormat());
    assertEquals("_init_array", hsaco.getFunctions(0).getName());

    for (String target : List.of("nvptx-none", "amdgcn-amdhsa")) {
      List<Subcommand> mk = of(report, SubcommandKind.SUBCOMMAND_KIND_MKOFFLOAD, target);
      assertEquals(1, mk.size(), target);
      assertTrue(mk.get(0).getInProcess());
      assertTrue(Durations.toNanos(mk.get(0).getDuration()) > 0, mk.get(0).toString());
      assertTrue(mk.get(0).getArgvList().contains("-foffload-abi=lp64"), "argv spelled out");
      List<Subcommand> accel = of(report, SubcommandKind.SUBCOMMAND_KIND_ACCEL_COMPILE, target);
      assertFalse(accel.isEmpty(), target + " accel compile");
      assertTrue(Durations.toNanos(accel.get(0).getDuration()) > 0);
    }
    assertEquals(1, of(report, SubcommandKind.SUBCOMMAND_KIND_WPA, "").size());
    assertFalse(of(report, SubcommandKind.SUBCOMMAND_KIND_LTRANS, "").isEmpty());
    for (Subcommand s : report.getSubcommandsList()) {
      assertEquals(0, s.getExitStatus(), s.toString());
    }
  }

  private static List<Subcommand> of(LinkReport r, SubcommandKind kind, String target) {
    return r.getSubcommandsList().stream()
        .filter(s -> s.getKind() == kind && s.getTarget().equals(target))
        .toList();
  }
}
