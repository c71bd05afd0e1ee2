package org.offlink.bridge.gcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.offlink.bridge.process.FakeProcessRunner;
import org.offlink.bridge.tool.OffloadTarget;

class GccInstallationTest {
  @Test
  void fromDebianLibraryPath() {
    GccInstallation g =
        GccInstallation.fromLibraryPath(
                Path.of("/usr/lib/gcc/x86_64-linux-gnu/12/accel/nvptx-none/mkoffload"))
            .orElseThrow();
    assertEquals("x86_64-linux-gnu", g.hostTriplet());
    assertEquals(12, g.major());
    assertEquals(
        "x86_64-linux-gnu-accel-nvptx-none-gcc-12", g.accelDriverName(OffloadTarget.NVPTX));
    assertTrue(GccInstallation.fromLibraryPath(Path.of("/usr/bin/gcc")).isEmpty());
  }

  /** The layout as a regex: the specification the component scan must agree with. */
  private static final Pattern LIB_LAYOUT =
      Pattern.compile("(?:.*/)?lib(?:exec)?/gcc/([^/]+)/(\\d+)(?:\\.\\d+)*(?:/.*)?");

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/usr/lib/gcc/x86_64-linux-gnu/12/accel/nvptx-none/mkoffload",
        "/usr/libexec/gcc/x86_64-pc-linux-gnu/13.2.0/accel/amdgcn-amdhsa/mkoffload",
        "/usr/lib/gcc/x86_64-linux-gnu/12",
        "/usr/lib/gcc/x86_64-linux-gnu/12/",
        "lib/gcc/aarch64-linux-gnu/14.1/lto-wrapper",
        "/opt/lib/gcc/a/1/x/lib/gcc/b/2/mkoffload",
        "/opt/lib/gcc/a/1/x/lib/gcc/b/beta/mkoffload",
        "/usr/lib/gcc/x86_64-linux-gnu/12.x/mkoffload",
        "/usr/lib/gcc/x86_64-linux-gnu/12./mkoffload",
        "/usr/lib/gcc/x86_64-linux-gnu/.12/mkoffload",
        "/usr/lib/gcc/x86_64-linux-gnu",
        "/usr/mylib/gcc/x86_64-linux-gnu/12/mkoffload",
        "/usr/lib/gcc-cross/x86_64-linux-gnu/12/mkoffload",
        "/usr/lib/gcc//12/mkoffload",
        "/usr/bin/gcc",
        "mkoffload",
        "/"
      })
  void libraryPathScanAgreesWithTheLayoutRegex(String text) {
    Path path = Path.of(text);
    Matcher m = LIB_LAYOUT.matcher(path.normalize().toString());
    Optional<GccInstallation> expected =
        m.matches()
            ? Optional.of(
                new GccInstallation(m.group(1), new GccVersion(Integer.parseInt(m.group(2)), 0, 0)))
            : Optional.empty();
    assertEquals(expected, GccInstallation.fromLibraryPath(path), text);
  }

  @Test
  void detectAsksCollectGcc() throws Exception {
    FakeProcessRunner fake =
        FakeProcessRunner.answering(
            c ->
                FakeProcessRunner.ok(
                    c,
                    c.argv().get(1).equals("-dumpmachine") ? "aarch64-linux-gnu\n" : "12.2.0\n"));
    GccInstallation g = GccInstallation.detect(Map.of("COLLECT_GCC", "gcc"), Path.of("/"), fake);
    assertEquals(new GccInstallation("aarch64-linux-gnu", new GccVersion(12, 2, 0)), g);
    assertEquals(List.of("gcc", "-dumpmachine"), fake.commands().get(0).argv());
  }

  @Test
  void gcc12IsSupported() throws Exception {
    new GccInstallation("x86_64-linux-gnu", GccVersion.parse("12"))
        .requireSupported(OffloadTarget.NVPTX);
  }

  @ParameterizedTest
  @ValueSource(ints = {12, 13, 14, 15, 16})
  void nvptxMkoffloadIsSupportedFrom12To16(int major) throws Exception {
    new GccInstallation("x86_64-linux-gnu", new GccVersion(major, 1, 0))
        .requireSupported(OffloadTarget.NVPTX);
  }

  @ParameterizedTest
  @ValueSource(ints = {12, 13, 14, 15, 16})
  void gcnMkoffloadIsSupportedFrom12To16(int major) throws Exception {
    new GccInstallation("x86_64-linux-gnu", new GccVersion(major, 2, 0))
        .requireSupported(OffloadTarget.AMDGCN);
  }

  @Test
  void oldVersionRefused() {
    UnsupportedGccException e =
        assertThrows(
            UnsupportedGccException.class,
            () ->
                new GccInstallation("x86_64-linux-gnu", new GccVersion(11, 0, 0))
                    .requireSomeTargetSupported());
    assertTrue(e.getMessage().contains("layouts of GCC 12 to 16"), e.getMessage());
    assertTrue(e.getMessage().contains("detected GCC 11.0.0, see \"Supported"), e.getMessage());
  }

  @Test
  void environmentDance() {
    Map<String, String> env = Map.of("COMPILER_PATH", "/c", "PATH", "/bin", "LIBRARY_PATH", "/l");
    Map<String, String> accel = AccelEnvironment.forAccelCompiler(env);
    assertEquals(Map.of("PATH", "/bin"), accel);
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    Map<String, String> back =
        AccelEnvironment.restored(env, true, new java.io.PrintStream(bytes, true));
    assertEquals("", back.get("GCC_EXEC_PREFIX"));
    assertEquals("/c", back.get("COMPILER_PATH"));
    assertEquals("GCC_EXEC_PREFIX=\nCOMPILER_PATH=/c\nLIBRARY_PATH=/l\n", bytes.toString());
  }

  @Test
  void optionsParsing() throws Exception {
    OffloadOptions o =
        OffloadOptions.parse(
            List.of(
                "-save-temps",
                "-o",
                "./x.o",
                "a.o",
                "-foffload-abi=lp64",
                "-fopenacc",
                "-dumpbase",
                "./x.xnvptx-none"));
    assertEquals(
        List.of(
            "-save-temps",
            "a.o",
            "-foffload-abi=lp64",
            "-fopenacc",
            "-dumpbase",
            "./x.xnvptx-none"),
        o.forwarded());
    assertEquals("./x.xnvptx-none", o.dumppfx());
    assertEquals("./x.xnvptx-none.mkoffload", o.names().mkoffload());
    assertTrue(o.saveTemps() && !o.openmp());
    OffloadOptionException e =
        assertThrows(
            OffloadOptionException.class,
            () ->
                OffloadOptions.parse(
                    List.of("-o", "x", "-foffload-abi=lp64", "-fopenmp", "-fopenacc")));
    assertEquals("either -fopenacc or -fopenmp must be set", e.getMessage());
    e =
        assertThrows(
            OffloadOptionException.class,
            () -> OffloadOptions.parse(List.of("-o", "x", "-foffload-abi=x32", "-fopenmp")));
    assertEquals("unrecognizable argument of option -foffload-abi=", e.getMessage());
  }
}
