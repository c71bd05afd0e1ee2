package org.offlink.ltowrapper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Host-only LTO link with the real gcc-12, whose driver finds our lto-wrapper through {@code -B}.
 * Fails (does not skip) when gcc-12 is missing.
 */
class RealGccSmokeTest {
  @TempDir Path dir;

  private String run(List<String> argv, int expected) throws Exception {
    return run(argv, expected, dir.resolve("tmp"));
  }

  private String run(List<String> argv, int expected, Path tmpdir) throws Exception {
    Files.createDirectories(tmpdir);
    ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true);
    pb.environment().put("TMPDIR", tmpdir.toString());
    pb.environment().put("PATH", "/usr/bin:/bin");
    pb.environment().put("LANG", "C");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "finished: " + argv);
    assertEquals(expected, p.exitValue(), argv + "\n" + out);
    return out;
  }

  private void launcher() throws IOException {
    Path bin = dir.resolve("bin");
    Files.createDirectories(bin);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path script = bin.resolve("lto-wrapper");
    Files.writeString(
        script,
        "#!/bin/sh\n"
            + "echo used >> '"
            + dir.resolve("marker")
            + "'\n"
            + "exec '"
            + java
            + "' -Dofflink.argv0=\"$0\" -cp '"
            + System.getProperty("java.class.path")
            + "' "
            + LtoWrapperMain.class.getName()
            + " \"$@\"\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @Test
  void hostLtoLinkThroughOurLtoWrapper() throws Exception {
    launcher();
    Files.writeString(
        dir.resolve("a.c"),
        "#include <stdio.h>\nint f(int);\nint main(void){printf(\"%d\\n\", f(20));return 0;}\n");
    Files.writeString(dir.resolve("b.c"), "int f(int x){return x*2+2;}\n");
    run(List.of("gcc-12", "-flto", "-O2", "-c", "a.c", "b.c"), 0);
    String link =
        run(
            List.of(
                "gcc-12",
                "-flto=2",
                "-O2",
                "-B",
                dir.resolve("bin") + "/",
                "-v",
                "a.o",
                "b.o",
                "-o",
                "prog"),
            0);
    assertTrue(Files.readString(dir.resolve("marker")).contains("used"), "our lto-wrapper ran");
    assertTrue(link.contains("-fwpa=2"), "WPA with -flto=2 parallelism:\n" + link);
    assertTrue(link.contains("-fltrans"), "LTRANS ran:\n" + link);
    assertEquals("42\n", run(List.of(dir.resolve("prog").toString()), 0));
  }

  @Test
  void ltoWrapperFailureFailsTheLink() throws Exception {
    launcher();
    Files.writeString(dir.resolve("a.c"), "int main(void){return 0;}\n");
    run(List.of("gcc-12", "-flto", "-c", "a.c"), 0);
    // The driver does not check -march= at link time; lto-wrapper forwards it and lto1 rejects it.
    String out =
        run(
            List.of(
                "gcc-12",
                "-flto",
                "-B",
                dir.resolve("bin") + "/",
                "-march=bogus",
                "a.o",
                "-o",
                "prog"),
            1);
    assertTrue(out.contains("lto-wrapper: fatal error: "), out);
    assertTrue(out.contains("returned 1 exit status\ncompilation terminated."), out);
    assertTrue(out.contains("error: lto-wrapper failed"), "ld saw our exit status:\n" + out);
  }

  /**
   * An OpenMP offload link for nvptx-none: the plugin's offload list and {@code
   * .gnu.offload_lto_.opts} are read by the production wiring, GCC's mkoffload builds the image.
   * PATH excludes /usr/local/bin (its CUDA ptxas rejects GCC 12's PTX).
   */
  @Test
  void nvptxOffloadLinkThroughOurLtoWrapper() throws Exception {
    launcher();
    Files.writeString(
        dir.resolve("x.c"),
        "#include <stdio.h>\nint main(void){int s=0;\n#pragma omp target map(tofrom:s)\n"
            + "{ for(int i=0;i<10;i++) s+=i; }\nprintf(\"%d\\n\", s); return 0;}\n");
    run(List.of("gcc-12", "-fopenmp", "-foffload=nvptx-none", "-c", "x.c"), 0);
    String link =
        run(
            List.of(
                "gcc-12",
                "-fopenmp",
                "-foffload=nvptx-none",
                "-B",
                dir.resolve("bin") + "/",
                "-v",
                "x.o",
                "-o",
                "x_nv"),
            0);
    assertTrue(link.contains("/accel/nvptx-none/mkoffload @"), link);
    byte[] binary = Files.readAllBytes(dir.resolve("x_nv"));
    assertTrue(
        new String(binary, StandardCharsets.ISO_8859_1).contains("// BEGIN PREAMBLE"),
        "the PTX image is linked in");
    assertEquals("45\n", run(List.of(dir.resolve("x_nv").toString()), 0));
  }

  /**
   * A {@code -g} host LTO link (issue 12): our lto-wrapper writes the early debug objects, byte for
   * byte as stock's, prints them so the final link resolves the DWARF references into them, and
   * removes them afterwards; a link-time {@code -g0} writes none.
   */
  @Test
  void debugLtoLinkCopiesEarlyDebugInfoAsStock() throws Exception {
    launcher();
    Files.writeString(
        dir.resolve("a.c"),
        "#include <stdio.h>\nint f(int);\nint main(void){printf(\"%d\\n\", f(20));return 0;}\n");
    Files.writeString(dir.resolve("b.c"), "int f(int x){return x*2+2;}\n");
    run(List.of("gcc-12", "-g", "-flto", "-O2", "-c", "a.c", "b.c"), 0);
    List<String> link = List.of("gcc-12", "-g", "-flto=2", "-O2", "a.o", "b.o", "-save-temps");
    run(concat(link, List.of("-o", "stock")), 0);
    byte[] stockA = Files.readAllBytes(dir.resolve("a.o.debug.temp.o"));
    byte[] stockB = Files.readAllBytes(dir.resolve("b.o.debug.temp.o"));
    Files.delete(dir.resolve("a.o.debug.temp.o"));
    Files.delete(dir.resolve("b.o.debug.temp.o"));
    String ours = dir.resolve("bin") + "/";
    run(concat(link, List.of("-B", ours, "-o", "saved")), 0);
    assertArrayEquals(stockA, Files.readAllBytes(dir.resolve("a.o.debug.temp.o")));
    assertArrayEquals(stockB, Files.readAllBytes(dir.resolve("b.o.debug.temp.o")));

    Path tmp = dir.resolve("private-tmp");
    List<String> plain = List.of("gcc-12", "-g", "-flto", "-O2", "a.o", "b.o", "-B", ours);
    run(concat(plain, List.of("-o", "prog")), 0, tmp);
    assertEquals("42\n", run(List.of(dir.resolve("prog").toString()), 0));
    try (var left = Files.list(tmp)) {
      assertEquals(List.of(), left.toList(), "no temp file left behind");
    }
    assertEquals(unitCount("stock"), unitCount("prog"), "DWARF units as in stock's program");

    Files.delete(dir.resolve("a.o.debug.temp.o"));
    run(concat(link, List.of("-g0", "-B", ours, "-o", "nodebug")), 0);
    assertTrue(Files.notExists(dir.resolve("a.o.debug.temp.o")), "-g0 at link time: no copy");
  }

  private int unitCount(String program) throws Exception {
    String dump = run(List.of("readelf", "--debug-dump=info", program), 0);
    int units = dump.split("Compilation Unit @", -1).length - 1;
    assertTrue(units >= 2, program + " has the early and the LTRANS units:\n" + units);
    return units;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new java.util.ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
