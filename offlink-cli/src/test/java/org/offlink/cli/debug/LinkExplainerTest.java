package org.offlink.cli.debug;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.offlink.ltowrapper.report.proto.EnvironmentVariable;
import org.offlink.ltowrapper.report.proto.Execution;
import org.offlink.ltowrapper.report.proto.Function;
import org.offlink.ltowrapper.report.proto.Image;
import org.offlink.ltowrapper.report.proto.ImageFormat;
import org.offlink.ltowrapper.report.proto.Input;
import org.offlink.ltowrapper.report.proto.InputKind;
import org.offlink.ltowrapper.report.proto.LinkReport;
import org.offlink.ltowrapper.report.proto.ReproducerManifest;
import org.offlink.ltowrapper.report.proto.Subcommand;
import org.offlink.ltowrapper.report.proto.SubcommandKind;
import org.offlink.ltowrapper.report.proto.Target;
import org.offlink.ltowrapper.report.proto.TargetStatus;
import org.offlink.ltowrapper.report.proto.ToolVersion;

/** {@code offlink explain}'s words for a passing and a failing link. */
class LinkExplainerTest {
  private static EnvironmentVariable env(String name, String value) {
    return EnvironmentVariable.newBuilder().setName(name).setValue(value).build();
  }

  private static LinkReport.Builder base() {
    return LinkReport.newBuilder()
        .setWorkingDirectory("/w")
        .setOfflinkVersion("v")
        .addEnvironment(env("COLLECT_GCC_OPTIONS", "'-fopenmp' '-foffload-options=-lm' '-o' 'p'"))
        .addInputs(
            Input.newBuilder()
                .setSpelling("a.o")
                .setKind(InputKind.INPUT_KIND_LTO_AND_OFFLOAD)
                .addOffloadOptions("'-fopenmp' '-foffload-abi=lp64'")
                .addOffloadOptions("'-O2'"))
        .addInputs(Input.newBuilder().setSpelling("b.o").setKind(InputKind.INPUT_KIND_LTO));
  }

  @Test
  void aPassingDefaultLink() {
    LinkReport r =
        base()
            .addEnvironment(env("OFFLOAD_TARGET_NAMES", "nvptx-none:amdgcn-amdhsa"))
            .addEnvironment(env("OFFLOAD_TARGET_DEFAULT", "1"))
            .addTargets(
                Target.newBuilder()
                    .setName("nvptx-none")
                    .setExecution(Execution.EXECUTION_IN_PROCESS)
                    .setStatus(TargetStatus.TARGET_STATUS_OK)
                    .setObject("/tmp/cc1.o"))
            .addTargets(
                Target.newBuilder()
                    .setName("amdgcn-amdhsa")
                    .setStatus(TargetStatus.TARGET_STATUS_DROPPED)
                    .setError("no accel/amdgcn-amdhsa/mkoffload"))
            .addImages(
                Image.newBuilder()
                    .setTarget("nvptx-none")
                    .setFormat(ImageFormat.IMAGE_FORMAT_PTX)
                    .setImageSize(100)
                    .setSha256("ab")
                    .addFunctions(Function.newBuilder().setName("main$_omp_fn$0"))
                    .setVariableCount(1)
                    .addVariables("table"))
            .addSubcommands(
                Subcommand.newBuilder()
                    .setKind(SubcommandKind.SUBCOMMAND_KIND_ACCEL_COMPILE)
                    .setTarget("nvptx-none")
                    .addAllArgv(List.of("accel-gcc", "-O2", "-lm", "-o", "x", "in.o")))
            .addOutputLines("/tmp/cc1.o")
            .addMergeNotes("option -fno-pie with different values")
            .build();
    List<String> text = LinkExplainer.explain(r, Optional.empty());
    String all = String.join("\n", text);
    assertTrue(all.contains("Outcome: succeeded; 1 object(s) handed to the linker: /tmp/cc1.o"));
    assertTrue(all.contains("Targets: nvptx-none, amdgcn-amdhsa"), all);
    assertTrue(all.contains("gcc passed the targets it was configured with"), all);
    assertTrue(
        all.contains(
            "  nvptx-none: built by offlink's mkoffload in lto-wrapper's JVM -> /tmp/cc1.o"));
    assertTrue(all.contains("  amdgcn-amdhsa: dropped: no accel/amdgcn-amdhsa/mkoffload"));
    assertTrue(
        all.contains(
            "  a.o: host LTO IR and offload IR\n"
                + "    its offload IR was compiled with: -fopenmp -foffload-abi=lp64 -O2\n"
                + "  b.o: host LTO IR (no offload IR)"),
        all);
    assertTrue(all.contains("  link: -foffload-options=-lm"), all);
    assertTrue(all.contains("  nvptx-none accel compiler ran with: -O2 -lm"), all);
    assertTrue(all.contains("    option -fno-pie with different values"), all);
    assertTrue(all.contains("  nvptx-none: PTX, 100 bytes, sha256 ab"), all);
    assertTrue(all.contains("    1 function(s): main$_omp_fn$0\n    1 variable(s): table"), all);
    assertTrue(text.stream().noneMatch(l -> l.startsWith("Failure")), all);
  }

  @Test
  void aFailingLinkNamesTheStepItsStderrAndAHint() {
    LinkReport r =
        base()
            .setExitStatus(1)
            .setError("mkoffload returned 1 exit status")
            .addEnvironment(env("OFFLOAD_TARGET_NAMES", "nvptx-none"))
            .addTargets(
                Target.newBuilder()
                    .setName("nvptx-none")
                    .setExecution(Execution.EXECUTION_IN_PROCESS)
                    .setStatus(TargetStatus.TARGET_STATUS_FAILED)
                    .setError("mkoffload returned 1 exit status"))
            .addSubcommands(
                Subcommand.newBuilder()
                    .setKind(SubcommandKind.SUBCOMMAND_KIND_ACCEL_COMPILE)
                    .setTarget("nvptx-none")
                    .addArgv("/usr/bin/x86_64-linux-gnu-accel-nvptx-none-gcc-12")
                    .setExitStatus(1)
                    .addStderrHead("unresolved symbol sqrt")
                    .addStderrHead("collect2: error: ld returned 1 exit status"))
            .addSubcommands(
                Subcommand.newBuilder()
                    .setKind(SubcommandKind.SUBCOMMAND_KIND_MKOFFLOAD)
                    .setTarget("nvptx-none")
                    .addArgv("/x/accel/nvptx-none/mkoffload")
                    .setExitStatus(1)
                    .addStderrHead("unresolved symbol sqrt")
                    .addStderrHead("mkoffload: fatal error: accel gcc returned 1 exit status"))
            .build();
    ReproducerManifest m =
        ReproducerManifest.newBuilder()
            .addTools(
                ToolVersion.newBuilder().setTool("host gcc").setStatus("ok").setDetail("12.2"))
            .build();
    List<String> text = LinkExplainer.explain(r, Optional.of(m));
    String all = String.join("\n", text);
    assertTrue(all.contains("Outcome: FAILED (exit status 1): mkoffload returned 1"), all);
    assertTrue(all.contains("chosen by -foffload= on the gcc command line"), all);
    int failure = text.indexOf("Failure: the steps that failed, the first one first:");
    assertEquals(
        List.of(
            "  accel compile for nvptx-none (exit status 1): x86_64-linux-gnu-accel-nvptx-none-gcc-12",
            "    unresolved symbol sqrt",
            "    collect2: error: ld returned 1 exit status",
            "  mkoffload for nvptx-none (exit status 1): mkoffload",
            "    mkoffload: fatal error: accel gcc returned 1 exit status"),
        text.subList(failure + 1, failure + 6));
    assertTrue(text.get(failure + 6).startsWith("  hint: the device code calls libm"), all);
    assertTrue(all.endsWith("  host gcc [ok]: 12.2"), all);
  }
}
