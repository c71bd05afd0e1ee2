package org.offlink.streamer.opts;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.offlink.streamer.testing.Toolchain;

class OptionQuotingTest {
  @TempDir Path dir;

  static Stream<List<String>> trickyLists() {
    return Stream.of(
        List.of(),
        List.of(""),
        List.of("", ""),
        List.of("-v", "-save-temps", "-o", "x_nv"),
        List.of("it's"),
        List.of("'"),
        List.of("''", "'\\''"),
        List.of("back\\slash", "\\", "trailing\\"),
        List.of("with space", " lead", "trail "),
        List.of("-DQ='a b'", "-foffload-options=-DX=\"y z\""),
        List.of("ünïcödé", "tab\there", "new\nline"));
  }

  @ParameterizedTest
  @MethodSource("trickyLists")
  void formatThenParseRoundTrips(List<String> options) {
    assertEquals(options, OptionQuoting.parse(OptionQuoting.format(options)));
  }

  @Test
  void formatsLikeTheDriver() {
    assertEquals("'-v' 'it'\\''s' ''", OptionQuoting.format(List.of("-v", "it's", "")));
  }

  @Test
  void decoderSkipsUnquotedTextAndSplitsAdjacentQuotes() {
    assertEquals(List.of("a", "b"), OptionQuoting.parse("junk 'a''b' \\ more"));
    assertEquals(List.of("x'y"), OptionQuoting.parse("'x'\\''y'"));
    assertEquals(List.of("a\\b"), OptionQuoting.parse("'a\\b'"));
    assertEquals(List.of(), OptionQuoting.parse("unquoted words only"));
  }

  @Test
  void unterminatedQuoteIsMalformedCollectGccOptions() {
    MalformedOptionsException e =
        assertThrows(MalformedOptionsException.class, () -> OptionQuoting.parse("'-v' '-o"));
    assertTrue(e.getMessage().startsWith("malformed 'COLLECT_GCC_OPTIONS'"), e.getMessage());
    assertEquals(5, e.quoteIndex());
  }

  @Test
  void realOffloadOptsSectionParsesAndReformatsByteForByte() throws Exception {
    Toolchain.write(dir, "x.c", Toolchain.offloadSource("foo"));
    Toolchain.stdout(
        dir,
        "gcc-12",
        "-fopenmp",
        "-foffload=amdgcn-amdhsa",
        "-foffload-options=-DQ=it's",
        "-O2",
        "-c",
        "x.c");
    Path obj = dir.resolve("x.o");
    byte[] section = Toolchain.dumpSection(dir, obj, ".gnu.offload_lto_.opts");

    assertArrayEquals(objdumpBytes(obj, ".gnu.offload_lto_.opts"), section);
    List<List<String>> lists = OptsSection.parse(section);
    assertEquals(1, lists.size());
    List<String> options = lists.get(0);
    assertTrue(options.contains("-fopenmp"), options.toString());
    assertTrue(options.contains("-foffload-abi=lp64"), options.toString());
    assertTrue(options.contains("-foffload-options=-DQ=it's"), options.toString());
    assertArrayEquals(section, OptsSection.format(lists));
  }

  @Test
  void ldRelocatableLinkConcatenatesOptsStrings() throws Exception {
    Toolchain.write(dir, "a.c", Toolchain.offloadSource("fa"));
    Toolchain.write(dir, "b.c", Toolchain.offloadSource("fb"));
    Toolchain.stdout(dir, "gcc-12", "-fopenmp", "-foffload=amdgcn-amdhsa", "-c", "a.c");
    Toolchain.stdout(dir, "gcc-12", "-fopenmp", "-foffload=amdgcn-amdhsa", "-O1", "-c", "b.c");
    Toolchain.stdout(dir, "ld", "-r", "a.o", "b.o", "-o", "ab.o");
    byte[] section = Toolchain.dumpSection(dir, dir.resolve("ab.o"), ".gnu.offload_lto_.opts");

    List<List<String>> lists = OptsSection.parse(section);
    assertEquals(2, lists.size());
    assertTrue(lists.get(1).contains("-O1"), lists.toString());
    assertArrayEquals(section, OptsSection.format(lists));
  }

  /** The section bytes as {@code objdump -s -j} prints them (hex columns). */
  private byte[] objdumpBytes(Path obj, String section) throws Exception {
    String dump = Toolchain.stdout(dir, "objdump", "-s", "-j", section, obj.toString());
    StringBuilder hex = new StringBuilder();
    for (String line : dump.split("\n")) {
      if (line.matches(" [0-9a-f]{4,} .*")) {
        String cols =
            line.substring(
                line.indexOf(' ', 1) + 1, Math.min(line.length(), line.indexOf(' ', 1) + 1 + 35));
        hex.append(cols.replace(" ", ""));
      }
    }
    byte[] b = new byte[hex.length() / 2];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    }
    return b;
  }

  @Test
  void optsSectionWithSeveralStringsAndEmptyOnes() {
    byte[] data = "'-a' 'b'\0\0'c'\0".getBytes(StandardCharsets.UTF_8);
    assertEquals(List.of(List.of("-a", "b"), List.of(), List.of("c")), OptsSection.parse(data));
    assertEquals(List.of(), OptsSection.parse(new byte[0]));
  }

  @Test
  void optsSectionWithoutFinalNulEndsWithTheTrailingString() {
    // As GCC's lto-wrapper: the bytes after the last NUL are one more string (it reads on with
    // strlen); offlink stops at the section's end instead of reading past it.
    byte[] data = "'-a'\0'-fopenmp' '-O2'".getBytes(StandardCharsets.UTF_8);
    assertEquals(List.of("'-a'", "'-fopenmp' '-O2'"), OptsSection.split(data));
    assertEquals(List.of(List.of("-a"), List.of("-fopenmp", "-O2")), OptsSection.parse(data));
    assertEquals(
        List.of("'-a'", ""), OptsSection.split("'-a'\0\0".getBytes(StandardCharsets.UTF_8)));
    assertEquals(List.of(), OptsSection.split(new byte[0]));
  }

  @Test
  void anUnterminatedQuoteInTheTrailingStringIsStillAnError() {
    byte[] data = "'-a'\0'-O2".getBytes(StandardCharsets.UTF_8);
    assertThrows(IllegalArgumentException.class, () -> OptsSection.parse(data));
  }
}
