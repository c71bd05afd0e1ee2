package org.offlink.cli.streamer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.offlink.streamer.elf.ElfClass;
import org.offlink.streamer.elf.ElfData;
import org.offlink.streamer.elf.TestElfBuilder;

/**
 * Paths and inputs that are not what a command expects (issue 18, items 5 and 8): each {@code
 * bad_<what>} must end in one line {@code section-streamer: error: ...} that names the file and
 * what was found, exit 1, with no Java class name, no internal {@code .tmp} name, and nothing of a
 * foreign file's contents.
 */
class BadInputCliTest {
  @TempDir static Path dir;
  static Path object;

  /** A case: argv, and a fragment the error line must contain. */
  record Case(List<String> argv, String expected) {}

  @BeforeAll
  static void inputs() throws Exception {
    TestElfBuilder b = new TestElfBuilder(ElfClass.ELF64, ElfData.LSB);
    b.section(new TestElfBuilder.Sec(".text", 1, 6, new byte[] {1, 2, 3, 4}, 0, 0, 4, 0));
    object = dir.resolve("ok.o");
    b.build().writeTo(object);
    Files.createDirectory(dir.resolve("adir"));
    run("mkfifo", dir.resolve("fifo").toString());
    Files.createSymbolicLink(dir.resolve("loop"), dir.resolve("loop"));
    Files.createSymbolicLink(dir.resolve("dangling"), dir.resolve("nowhere"));
    // A thin archive whose member is /etc/passwd: no byte of it may appear in the message.
    run("ar", "rcTP", dir.resolve("thin.a").toString(), "/etc/passwd");
  }

  private static void run(String... argv) throws IOException, InterruptedException {
    assertEquals(0, new ProcessBuilder(argv).inheritIO().start().waitFor());
  }

  private static Map<String, Case> corpus() {
    String d = dir.toString();
    String o = object.toString();
    Map<String, Case> m = new LinkedHashMap<>();
    m.put("bad_input_directory", new Case(List.of("list", d + "/adir"), "found a directory"));
    m.put("bad_input_fifo", new Case(List.of("list", d + "/fifo"), "found a FIFO"));
    m.put("bad_input_link_loop", new Case(List.of("list", d + "/loop"), "symbolic link loop"));
    m.put(
        "bad_input_dangling_link",
        new Case(List.of("list", d + "/dangling"), "found a dangling symbolic link"));
    m.put("bad_input_missing", new Case(List.of("list", d + "/missing.o"), "no such file"));
    m.put(
        "bad_add_data_dev_zero",
        new Case(
            List.of("add", "--section", ".x=/dev/zero", "-o", d + "/out.o", o),
            "/dev/zero: expected a regular file, found a character device"));
    m.put(
        "bad_add_data_directory",
        new Case(
            List.of("add", "--section", ".x=" + d + "/adir", "-o", d + "/out.o", o),
            "found a directory"));
    m.put(
        "bad_output_missing_directory",
        new Case(
            List.of("strip", "-o", d + "/nodir/out.o", o),
            d + "/nodir/out.o: no such file or directory"));
    m.put(
        "bad_thin_member_not_elf",
        new Case(List.of("list", d + "/thin.a"), "found a file that is not ELF"));
    return m;
  }

  static Stream<Arguments> cases() {
    return corpus().keySet().stream().map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aBadInputGivesOneCleanLine(String name) {
    Case c = corpus().get(name);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status =
        SectionStreamerMain.run(
            c.argv().toArray(String[]::new),
            org.offlink.runtime.LinkScope.withUmask(022),
            new PrintWriter(out),
            new PrintWriter(err),
            false);
    String text = err.toString();
    assertEquals(1, status, text);
    assertTrue(text.startsWith("section-streamer: error: "), text);
    assertEquals(1, text.lines().count(), text);
    assertTrue(text.contains(c.expected()), text);
    assertFalse(text.matches("(?s).*\\b[A-Z]\\w+(Exception|Error)\\b.*"), text);
    assertFalse(text.contains(".tmp"), text);
    assertFalse(text.contains("root") || text.contains("72 6f 6f 74"), text);
  }
}
