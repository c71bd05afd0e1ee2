package org.offlink.cli.streamer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.streamer.testing.Toolchain;

/**
 * The CLI against the real GCC 12: what {@code list} and {@code opts} print is checked against
 * readelf, objdump and the {@code .ofldlist} file GCC's linker plugin writes; strip and add are
 * checked by linking the results.
 */
class SectionStreamerCliTest {
  @TempDir static Path dir;
  static Path object;

  record Run(int status, String out, String err) {}

  static Run cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status =
        SectionStreamerMain.run(
            args,
            org.offlink.runtime.LinkScope.withUmask(022),
            new PrintWriter(out),
            new PrintWriter(err),
            false);
    return new Run(status, out.toString(), err.toString());
  }

  @BeforeAll
  static void compile() throws Exception {
    object =
        Toolchain.compile(
            dir, "gcc", "x.c", Toolchain.OFFLOAD_C, "-fopenmp", "-foffload=nvptx-none");
  }

  @Test
  void listShowsEveryOffloadSectionWithReadelfsNamesAndSizes() throws Exception {
    Map<String, Long> readelf = readelfSections(object, ".gnu.offload_lto_");
    assertFalse(readelf.isEmpty());
    Run r = cli("list", "--json", object.toString());
    assertEquals(0, r.status(), r.err());
    Map<String, Long> ours = new LinkedHashMap<>();
    Matcher m =
        Pattern.compile("\"name\": \"(\\.gnu\\.offload_lto_[^\"]*)\",\\s*\"size\": (\\d+)")
            .matcher(r.out());
    while (m.find()) {
      ours.put(m.group(1), Long.parseLong(m.group(2)));
    }
    assertEquals(readelf, ours);
    assertTrue(r.out().contains("\"kind\": \"decls\""), r.out());
    assertTrue(r.out().contains("\"compression\": \"zstd\""), r.out());
    Run table = cli("list", object.toString());
    for (String name : readelf.keySet()) {
      assertTrue(table.out().contains(name), name);
    }
  }

  @Test
  void optsPrintsWhatObjdumpShowsInTheSection() throws Exception {
    String objdump =
        Toolchain.check(
            dir, List.of("objdump", "-s", "-j", ".gnu.offload_lto_.opts", object.toString()));
    java.io.ByteArrayOutputStream raw = new java.io.ByteArrayOutputStream();
    Pattern row = Pattern.compile("^ [0-9a-f]{4} ((?:[0-9a-f]{2,8} ?){1,4})");
    for (String line : objdump.lines().toList()) {
      Matcher m = row.matcher(line);
      if (m.find()) {
        String hex = m.group(1).replace(" ", "");
        for (int i = 0; i + 1 < hex.length(); i += 2) {
          raw.write(Integer.parseInt(hex.substring(i, i + 2), 16));
        }
      }
    }
    String text = raw.toString(StandardCharsets.UTF_8);
    assertTrue(text.endsWith("\0"), text);
    Run r = cli("opts", object.toString());
    assertEquals(0, r.status(), r.err());
    assertEquals(text.substring(0, text.length() - 1) + "\n", r.out());
    assertTrue(cli("opts", "--one-per-line", object.toString()).out().contains("\n-fopenmp\n"));
  }

  @Test
  void archiveMembersAreNamedAsGccsLinkerPluginNamesThem() throws Exception {
    Path main = dir.resolve("main.c");
    Files.writeString(main, "int work(int);\nint main(void) { return work(3) == 3 ? 0 : 1; }\n");
    Path lib =
        Toolchain.compile(
            dir,
            "gcc",
            "work.c",
            "int work(int k) {\n  int r = 0;\n#pragma omp target map(from: r)\n  r = k;\n"
                + "  return r;\n}\n",
            "-fopenmp",
            "-foffload=amdgcn-amdhsa");
    Toolchain.check(dir, List.of("ar", "rcs", "libx.a", lib.toString()));
    Path run = Files.createDirectories(dir.resolve("plugin"));
    Toolchain.check(
        run,
        List.of(
            "gcc",
            "-fopenmp",
            "-foffload=amdgcn-amdhsa",
            "-save-temps",
            main.toString(),
            dir.resolve("libx.a").toString(),
            "-o",
            "prog"));
    List<String> ofldlist = Files.readAllLines(run.resolve("prog.ofldlist"));
    String member = ofldlist.get(ofldlist.size() - 1);
    Run r = cli("list", dir.resolve("libx.a").toString());
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().startsWith(member + " (work.o):"), r.out() + " vs " + member);
    Run one = cli("opts", member);
    assertEquals(cli("opts", lib.toString()).out(), one.out(), one.err());
  }

  @Test
  void stripMakesAHostOnlyObjectAndAddPutsTheIrBack() throws Exception {
    Path host = dir.resolve("host.o");
    Path back = dir.resolve("back.o");
    assertEquals(0, cli("strip", object.toString(), "-o", host.toString()).status());
    assertTrue(cli("list", host.toString()).out().contains("(no offload or LTO sections)"));
    Run add = cli("add", "--from", object.toString(), host.toString(), "-o", back.toString());
    assertEquals(0, add.status(), add.err());
    assertEquals(
        readelfSections(object, ".gnu.offload_lto_"), readelfSections(back, ".gnu.offload_lto_"));
  }

  @Test
  void errorsAreOneLineNamingTheFile() throws IOException {
    Path junk = dir.resolve("junk.o");
    Files.writeString(junk, "not an object at all, clearly");
    for (String[] args :
        List.of(
            new String[] {"list", junk.toString()},
            new String[] {"list", dir.resolve("missing.o").toString()},
            new String[] {"opts", object.toString() + "x"},
            new String[] {"dump", object.toString(), ".no.such.section"})) {
      Run r = cli(args);
      assertEquals(1, r.status(), String.join(" ", args));
      assertTrue(r.err().startsWith("section-streamer: error: "), r.err());
      assertEquals(1, r.err().lines().count(), r.err());
      assertFalse(r.err().contains("at org."), r.err());
    }
  }

  private static Map<String, Long> readelfSections(Path file, String prefix) throws Exception {
    String out = Toolchain.check(dir, List.of("readelf", "-S", "-W", file.toString()));
    Map<String, Long> sections = new LinkedHashMap<>();
    Pattern row = Pattern.compile("\\]\\s+(\\S+)\\s+\\S+\\s+[0-9a-f]+\\s+[0-9a-f]+\\s+([0-9a-f]+)");
    for (String line : out.lines().toList()) {
      Matcher m = row.matcher(line);
      if (m.find() && m.group(1).startsWith(prefix)) {
        sections.put(m.group(1), Long.parseLong(m.group(2), 16));
      }
    }
    return sections;
  }
}
