package org.offlink.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.doctor.JvmFacts;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.LinkScope;
import org.offlink.streamer.inspect.BinaryInspector;
import org.offlink.streamer.inspect.NvptxTargetData;

/** {@code offlink inspect} through the CLI on a program linked by the real gcc-12 (nvptx). */
class InspectCommandTest {
  @TempDir static Path dir;

  @BeforeAll
  static void link() throws Exception {
    Files.writeString(
        dir.resolve("t.c"),
        "int v;\n#pragma omp declare target(v)\n"
            + "int main(void) {\n#pragma omp target\n v = 1;\n return 0; }\n");
    ProcessBuilder pb =
        new ProcessBuilder("gcc-12", "-fopenmp", "-foffload=nvptx-none", "t.c", "-o", "prog")
            .directory(dir.toFile())
            .redirectErrorStream(true);
    pb.environment().put("PATH", "/usr/bin:/bin");
    Process p = pb.start();
    String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), log);
  }

  private static String[] run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    LinkContext ctx =
        LinkContext.of(
            Map.of(),
            dir,
            java.io.InputStream.nullInputStream(),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            LinkScope.withUmask(022));
    int status = OfflinkMain.run(args, ctx, new JvmFacts("", "", ""), "");
    return new String[] {
      Integer.toString(status),
      out.toString(StandardCharsets.UTF_8),
      err.toString(StandardCharsets.UTF_8)
    };
  }

  @Test
  void jsonListsTheImageAndExtractWritesChunksWithoutTheNul() throws Exception {
    Path prog = dir.resolve("prog");
    Path x = dir.resolve("x");
    String[] r = run("inspect", "--json", "--extract", x.toString(), prog.toString());
    assertEquals("0", r[0], r[2]);
    assertTrue(r[1].contains("\"target\": \"nvptx-none\""), r[1]);
    assertTrue(r[1].contains("\"version\": \"0x10001\""), r[1]);
    assertTrue(r[1].contains("\"name\": \"main$_omp_fn$0\""), r[1]);
    NvptxTargetData n = (NvptxTargetData) BinaryInspector.inspect(prog).get(0).images().get(0);
    for (int i = 0; i < n.chunks().size(); i++) {
      byte[] file = Files.readAllBytes(x.resolve("prog.nvptx." + i + ".ptx"));
      assertArrayEquals(n.chunks().get(i).text(), file);
      assertNotEquals(0, file[file.length - 1]);
    }
    assertEquals(run("inspect", "--json", prog.toString())[1], r[1], "deterministic output");
  }

  @Test
  void textNamesFunctionsAndVariables() {
    String[] r = run("inspect", dir.resolve("prog").toString());
    assertEquals("0", r[0]);
    assertTrue(r[1].contains("host tables: 1 functions, 1 variables"), r[1]);
    assertTrue(r[1].contains("    variable v\n"), r[1]);
  }

  @Test
  void badInputIsOneLine() {
    String[] r = run("inspect", dir.resolve("t.c").toString());
    assertEquals("1", r[0]);
    assertEquals(1, r[2].lines().count(), r[2]);
    assertTrue(r[2].startsWith("offlink: error: " + dir.resolve("t.c")), r[2]);
    assertEquals(List.of("1"), List.of(run("inspect", dir.resolve("nope").toString())[0]));
  }
}
