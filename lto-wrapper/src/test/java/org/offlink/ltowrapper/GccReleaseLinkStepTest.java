package org.offlink.ltowrapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.ltowrapper.io.OptsSectionName;

/**
 * lto-wrapper behaving as the GCC named by COMPILER_PATH (delta §4.1): GCC 13+ forwards the unwind
 * table options and copies crtoffloadtableS.o for PIE links, 14+ names the response file per
 * target, 15's -foffload-abi-host-opts= is merged like -foffload-abi=. Without a GCC directory on
 * COMPILER_PATH, GCC 12's behaviour.
 */
class GccReleaseLinkStepTest {
  private static final String OPTS =
      "'-fno-openacc' '-fPIC' '-fcf-protection=none' '-foffload-abi=lp64' '-fopenmp'"
          + " '-fasynchronous-unwind-tables'";

  @TempDir Path dir;

  private Harness harness(String gccDir, String linkerOutput, String opts) throws IOException {
    Harness h = new Harness(dir);
    h.env.put(
        "COLLECT_GCC_OPTIONS",
        "'-save-temps' '-fopenmp' '-o' 'x' '-mtune=generic' '-march=x86-64' '-dumpdir' 'x.'");
    h.env.put("OFFLOAD_TARGET_NAMES", "nvptx-none");
    h.env.put("COMPILER_PATH", h.mkoffload("gcc", "nvptx-none") + gccDir);
    Files.createDirectories(dir.resolve("lib"));
    Files.writeString(dir.resolve("lib/crtoffloadtable.o"), "table");
    Files.writeString(dir.resolve("lib/crtoffloadtableS.o"), "tableS");
    h.env.put("LIBRARY_PATH", dir.resolve("lib") + "/");
    h.object("x-x.o", OptsSectionName.OFFLOAD, opts);
    h.write("x.ofldlist", "1\nx-x.o\n");
    h.write(
        "x.args",
        "-fresolution=x.res\n-flinker-output=" + linkerOutput + "\n-foffload-objects=x.ofldlist\n");
    return h;
  }

  private static String gcc(int major) {
    return ":/usr/libexec/gcc/x86_64-linux-gnu/" + major + "/";
  }

  private static List<String> mkoffloadArgv(Harness h) {
    for (List<String> c : h.runner.commands) {
      if (c.get(0).endsWith("/mkoffload")) {
        return c;
      }
    }
    throw new AssertionError("no mkoffload run:\n" + h.commands());
  }

  private String table(Harness h) throws IOException {
    String first = h.out.toString().lines().findFirst().orElseThrow();
    return new String(
        Files.readAllBytes(dir.resolve(first)), java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  @Test
  void gcc12KeepsItsArgvSharedResponseFileAndOwnPicTable() throws IOException {
    Harness h = harness("", "pie", OPTS);
    assertEquals(0, h.run(LtoWrapperGoldenTest.produce(0), "@x.args"), h.err());
    assertFalse(mkoffloadArgv(h).contains("-fasynchronous-unwind-tables"), h.commands());
    assertTrue(Files.exists(dir.resolve("x.offload_args")));
    assertTrue(table(h).startsWith("\u007fELF"), "offlink's own PIC table object");
  }

  @Test
  void gcc13ForwardsUnwindTablesAndCopiesTheSTableForPie() throws IOException {
    Harness h = harness(gcc(13), "pie", OPTS);
    assertEquals(0, h.run(LtoWrapperGoldenTest.produce(0), "@x.args"), h.err());
    List<String> argv = mkoffloadArgv(h);
    int at = argv.indexOf("-fasynchronous-unwind-tables");
    assertEquals(argv.indexOf("-fopenmp") + 1, at, h.commands());
    assertTrue(Files.exists(dir.resolve("x.offload_args")), "13 still shares the name");
    assertEquals("tableS", table(h));
  }

  @Test
  void gcc14NamesTheResponseFilePerTargetAndNoPieCopiesThePlainTable() throws IOException {
    Harness h = harness(gcc(14), "exec", OPTS);
    assertEquals(0, h.run(LtoWrapperGoldenTest.produce(0), "@x.args"), h.err());
    assertTrue(Files.exists(dir.resolve("x.nvptx-none.offload_args")), h.commands());
    assertFalse(Files.exists(dir.resolve("x.offload_args")));
    assertEquals("table", table(h));
  }

  @Test
  void missingSTableIsGccsInstallationError() throws IOException {
    Harness h = harness(gcc(14), "pie", OPTS);
    Files.delete(dir.resolve("lib/crtoffloadtableS.o"));
    assertEquals(1, h.run(LtoWrapperGoldenTest.produce(0), "@x.args"));
    assertTrue(
        h.err().contains("fatal error: installation error, cannot find 'crtoffloadtableS.o'"),
        h.err());
  }

  @Test
  void gcc15ForwardsAbiHostOptsAfterTheAbi() throws IOException {
    String opts =
        OPTS.replace("'-foffload-abi=lp64'", "'-foffload-abi=lp64' '-foffload-abi-host-opts=-m64'");
    Harness h = harness(gcc(15), "pie", opts);
    assertEquals(0, h.run(LtoWrapperGoldenTest.produce(0), "@x.args"), h.err());
    List<String> argv = mkoffloadArgv(h);
    assertEquals(
        argv.indexOf("-foffload-abi=lp64") + 1,
        argv.indexOf("-foffload-abi-host-opts=-m64"),
        h.commands());
  }

  @Test
  void inconsistentAbiHostOptsAreFatal() throws IOException {
    Harness h = harness(gcc(15), "pie", OPTS + " '-foffload-abi-host-opts=-m64'");
    h.object("y.o", OptsSectionName.OFFLOAD, OPTS + " '-foffload-abi-host-opts=-m32'");
    h.write("x.ofldlist", "2\nx-x.o\ny.o\n");
    assertEquals(1, h.run(LtoWrapperGoldenTest.produce(0), "@x.args"));
    assertTrue(
        h.err().contains("option -foffload-abi-host-opts=-m32 not used consistently"), h.err());
  }
}
