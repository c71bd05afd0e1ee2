package org.offlink.mkoffload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.LinkScope;

class MkoffloadToolTest {
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  private LinkContext context(Map<String, String> env) {
    return LinkContext.of(
        env,
        Path.of("/tmp"),
        java.io.InputStream.nullInputStream(),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        LinkScope.withUmask(022));
  }

  private static List<String> argv(String launcher, List<String> args) {
    List<String> argv = new java.util.ArrayList<>();
    argv.add(launcher);
    argv.addAll(args);
    return argv;
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void targetComesFromTheInstallPath() {
    assertEquals(
        Optional.of(OffloadTarget.NVPTX),
        org.offlink.bridge.mkoffload.MkoffloadInvocation.targetFromPath(
            "/opt/x/libexec/offlink/accel/nvptx-none/mkoffload"));
    assertEquals(
        Optional.of(OffloadTarget.AMDGCN),
        org.offlink.bridge.mkoffload.MkoffloadInvocation.targetFromPath(
            "/usr/lib/gcc/x86_64-linux-gnu/12/accel/amdgcn-amdhsa/mk"));
    assertEquals(
        Optional.empty(),
        org.offlink.bridge.mkoffload.MkoffloadInvocation.targetFromPath("/usr/bin/mkoffload"));
    assertEquals(
        Optional.empty(),
        org.offlink.bridge.mkoffload.MkoffloadInvocation.targetFromPath(
            "/x/accel/sparc/mkoffload"));
    assertEquals(
        Optional.empty(), org.offlink.bridge.mkoffload.MkoffloadInvocation.targetFromPath(""));
  }

  @Test
  void unknownTargetIsAOneLineUsageError() {
    int status = MkoffloadTool.run(context(Map.of()), argv("", List.of("--target=sparc")));
    assertEquals(1, status);
    assertEquals(
        "mkoffload: error: unknown offload target 'sparc' (expected nvptx-none or amdgcn-amdhsa)\n",
        err());
  }

  @Test
  void noTargetAtAllSaysHowToGiveOne() {
    int status = MkoffloadTool.run(context(Map.of()), argv("/usr/bin/mkoffload", List.of()));
    assertEquals(1, status);
    assertTrue(err().contains("pass --target="), err());
  }

  @Test
  void badWrapperModeInOfflinkFlagsIsRejected() {
    LinkContext ctx = context(Map.of("OFFLINK_FLAGS", "--wrapper=asm"));
    int status = MkoffloadTool.run(ctx, argv("/x/accel/nvptx-none/mkoffload", List.of()));
    assertEquals(1, status);
    assertEquals("mkoffload: error: unknown wrapper mode 'asm' (expected 'elf' or 'c')\n", err());
  }

  @Test
  void missingCollectGccIsGccsFatalError() {
    int status =
        MkoffloadTool.run(
            context(Map.of()),
            argv(
                "/x/accel/nvptx-none/mkoffload",
                List.of("-o", "x.o", "-fopenmp", "-foffload-abi=lp64", "in.o")));
    assertEquals(1, status);
    assertEquals(
        "mkoffload: fatal error: COLLECT_GCC must be set.\ncompilation terminated.\n", err());
  }

  @Test
  void helpAndVersionGoToStderrNotStdout() {
    assertEquals(0, MkoffloadTool.run(context(Map.of()), argv("", List.of("--version"))));
    assertEquals(0, MkoffloadTool.run(context(Map.of()), argv("", List.of("--help"))));
    assertTrue(err().startsWith(MkoffloadTool.VERSION + "\nUsage: mkoffload"), err());
    assertEquals("", out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void versionOfAnInstalledMkoffloadNamesItsTargetAndItsGccVersions() {
    assertEquals(
        0,
        MkoffloadTool.run(
            context(Map.of()), argv("/x/accel/nvptx-none/mkoffload", List.of("--version"))));
    assertEquals("offlink mkoffload 0.1.0 (GCC 12 to 16 compatible) for nvptx-none\n", err());
  }
}
