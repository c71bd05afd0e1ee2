package org.offlink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.doctor.Doctor;
import org.offlink.bridge.doctor.DoctorCheck;
import org.offlink.bridge.doctor.DoctorReport;
import org.offlink.bridge.doctor.GccFacts;
import org.offlink.bridge.doctor.JvmFacts;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.LinkScope;

/** {@code offlink doctor} on fake installations, and once on this machine's real one. */
class DoctorTest {
  @TempDir Path root;

  private static DoctorCheck check(DoctorReport r, String area) {
    return r.checks().stream().filter(c -> c.area().equals(area)).findFirst().orElseThrow();
  }

  @Test
  void completeInstallationIsHealthyAndNamesTheLinkTargets() throws Exception {
    FakeToolchainTree tree = new FakeToolchainTree(root).complete();
    DoctorReport r = new Doctor(tree.settings()).examine();
    assertEquals(List.of("nvptx-none", "amdgcn-amdhsa"), r.targets());
    assertEquals(r.targets(), r.linkable());
    assertTrue(r.healthy());
    assertTrue(
        check(r, "amdgcn-amdhsa assembler (llvm-mc)").detail().endsWith("llvm-13/bin/llvm-mc"));
    assertTrue(check(r, "start-up cache").detail().contains("jdk.jsa"));
    assertTrue(check(r, "host gcc").detail().contains("12.2.0"));
  }

  @Test
  void ptxasTrapIsAWarningThatExplainsTheWorkaround() throws Exception {
    FakeToolchainTree tree = new FakeToolchainTree(root).complete().withPtxas(true);
    DoctorReport r = new Doctor(tree.settings()).examine();
    DoctorCheck ptxas = check(r, "ptxas on PATH");
    assertEquals(DoctorCheck.Status.WARNING, ptxas.status());
    assertTrue(
        ptxas.detail().startsWith("CUDA 13 ptxas at " + root.resolve("usr/local/bin/ptxas")));
    assertTrue(ptxas.detail().contains("-Wa,--no-verify"));
    assertTrue(ptxas.detail().endsWith("remove " + root.resolve("usr/local/bin") + " from PATH"));
    assertTrue(r.healthy(), "offlink copes with the trap");
  }

  @Test
  void workingPtxasIsOk() throws Exception {
    FakeToolchainTree tree = new FakeToolchainTree(root).complete().withPtxas(false);
    DoctorReport r = new Doctor(tree.settings()).examine();
    assertEquals(DoctorCheck.Status.OK, check(r, "ptxas on PATH").status());
  }

  @Test
  void missingPiecesNameTheirDebianPackage() throws Exception {
    FakeToolchainTree tree = new FakeToolchainTree(root).complete();
    Files.delete(tree.bin.resolve("nvptx-none-as"));
    Files.delete(tree.root.resolve("usr/lib/llvm-13/bin/lld"));
    Files.delete(tree.bin.resolve("x86_64-linux-gnu-accel-amdgcn-amdhsa-gcc-12"));
    Files.delete(tree.root.resolve("usr/lib/x86_64-linux-gnu/libgomp-plugin-gcn.so.1"));
    DoctorReport r = new Doctor(tree.settings()).examine();
    assertFalse(r.healthy());
    assertEquals(List.of(), r.linkable());
    assertEquals("nvptx-tools", check(r, "nvptx-none assembler").debianPackage());
    DoctorCheck ld = check(r, "amdgcn-amdhsa linker (lld)");
    assertEquals(DoctorCheck.Status.MISSING, ld.status());
    assertTrue(ld.detail().endsWith("is a dangling link"));
    assertEquals("lld-13", ld.debianPackage());
    assertEquals("gcc-12-offload-amdgcn", check(r, "amdgcn-amdhsa accel compiler").debianPackage());
    assertEquals(DoctorCheck.Status.WARNING, check(r, "amdgcn-amdhsa libgomp plugin").status());
  }

  @Test
  void noHostGccAndOtherVersionsAreRefused() throws Exception {
    FakeToolchainTree tree = new FakeToolchainTree(root);
    DoctorReport none = new Doctor(tree.settings()).examine();
    assertFalse(none.healthy());
    assertEquals("gcc-12", check(none, "host gcc").debianPackage());

    tree.complete();
    tree.gccV = FakeToolchainTree.GCC_V.replace("12.2.0", "11.4.0");
    DoctorReport eleven = new Doctor(tree.settings()).examine();
    assertFalse(eleven.healthy());
    assertTrue(check(eleven, "host gcc").detail().contains("GCC 11 is not supported"));

    // GCC 16: both targets are served, neither is refused.
    tree.gccV = FakeToolchainTree.GCC_V.replace("12.2.0", "16.2.0");
    DoctorReport sixteen = new Doctor(tree.settings()).examine();
    assertEquals(DoctorCheck.Status.OK, check(sixteen, "host gcc").status());
    for (String target : List.of("nvptx-none", "amdgcn-amdhsa")) {
      // A refused target has one check named after it; a served one has its tools checked.
      assertTrue(
          sixteen.checks().stream().noneMatch(c -> c.area().equals(target)), sixteen.toString());
      assertTrue(check(sixteen, target + " accel compiler").detail().contains("-16"));
    }
  }

  @Test
  void configureLineIsTheFallbackForTheTargetList() {
    String v =
        FakeToolchainTree.GCC_V.replace("OFFLOAD_TARGET_NAMES=nvptx-none:amdgcn-amdhsa\n", "");
    assertEquals(
        List.of("nvptx-none", "amdgcn-amdhsa"), GccFacts.parse(v).orElseThrow().offloadTargets());
  }

  @Test
  void jsonAndExitStatusThroughTheCli() throws Exception {
    FakeToolchainTree tree = new FakeToolchainTree(root).complete();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    LinkContext ctx =
        LinkContext.of(
            Map.of("PATH", tree.path()),
            root,
            java.io.InputStream.nullInputStream(),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            LinkScope.withUmask(022));
    // The CLI runs real processes: the fake gcc-12 prints nothing, so the host check fails.
    int status =
        OfflinkMain.run(
            new String[] {"doctor", "--json", "--root", root.toString()},
            ctx,
            new JvmFacts("/jdk", "17", ""),
            "");
    assertEquals(1, status);
    String json = out.toString(StandardCharsets.UTF_8);
    assertTrue(json.contains("\"healthy\": false"), json);
    assertTrue(json.contains("\"area\": \"host gcc\""), json);
  }

  @Test
  void realMachineIsHealthyAndReportsThePtxasTrap() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    LinkContext ctx =
        LinkContext.of(
            Map.of("PATH", "/usr/local/bin:/usr/bin:/bin"),
            root,
            java.io.InputStream.nullInputStream(),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            LinkScope.withUmask(022));
    int status = OfflinkMain.run(new String[] {"doctor"}, ctx, JvmFacts.ofRunningJvm(), "");
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, status, text);
    assertTrue(text.contains("gcc-12 12."), text);
    boolean cudaPtxas = Files.isExecutable(Path.of("/usr/local/bin/ptxas"));
    if (cudaPtxas) {
      assertTrue(text.contains("rejects GCC 12's sm_30 PTX"), text);
    }
  }
}
