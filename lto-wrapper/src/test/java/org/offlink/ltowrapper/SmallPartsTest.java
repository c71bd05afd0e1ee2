package org.offlink.ltowrapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.lto.LtransList;
import org.offlink.ltowrapper.run.Diagnostics;
import org.offlink.ltowrapper.run.DumpNames;
import org.offlink.ltowrapper.run.LtoWrapperException;

class SmallPartsTest {
  @ParameterizedTest
  @CsvSource({
    "libx.a@0x53c, libx.a, 1340",
    "libx.a@100, libx.a, 100",
    "libx.a@010, libx.a, 8",
    "libx.a@0, libx.a, 0",
    "@0x10, @0x10, 0",
    "a@b@0x10, a@b, 16",
    "x.o@0x, x.o@0x, 0",
    "x.o@12z, x.o@12z, 0",
    "user@host.o, user@host.o, 0",
    "'x.o@ 12', x.o, 12",
    "x.o@+12, x.o, 12",
    "x.o@\u0661\u0662, x.o@\u0661\u0662, 0",
  })
  void inputOffsetSuffix(String spelling, String file, long offset) {
    InputFile in = InputFile.parse(spelling, Path.of("/w"));
    assertEquals(Path.of("/w").resolve(file), in.file());
    assertEquals(offset, in.offset());
    assertEquals(spelling, in.spelling());
  }

  @Test
  void negativeInputOffsetIsAnError() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> InputFile.parse("x.a@-16", Path.of("/w")));
    assertTrue(e.getMessage().contains("x.a@-16"), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource({
    "'', x_nv, ./x_nv.",
    "'', out/x_nv, out/x_nv.",
    "'', a.out, ./a.",
    "'', dir/a.out, dir/a.",
    "'', prog.exe, ./prog.",
    "'', lib.so, ./lib.so.",
    "'', /dev/null, ./a.",
    "x_nv., x, ./x_nv.",
    "d/x., x, d/x.",
  })
  void dumpPrefix(String dumpdir, String output, String expected) {
    assertEquals(expected, DumpNames.of(dumpdir.isEmpty() ? null : dumpdir, output).prefix());
  }

  @Test
  void dumpPrefixWithoutOutput() {
    assertEquals("./a.", DumpNames.of(null, null).prefix());
    assertEquals("./x.xnvptx-none", DumpNames.of("x.", null).offloadDumpbase("nvptx-none"));
    assertEquals("./x.ltrans3.ltrans", DumpNames.of("x.", null).ltransDumpbase(3));
  }

  @Test
  void ltransListParsing() {
    List<LtransList.Entry> e = LtransList.parse("12\n./x.ltrans0.o\n3\n*/tmp/pass.o\n", "l");
    assertEquals(2, e.size());
    assertEquals("./x.ltrans0.ltrans.o", e.get(0).output());
    assertEquals("/tmp/pass.o", e.get(1).output());
    assertEquals(List.of(), LtransList.parse("", "l"));
    LtoWrapperException bad =
        assertThrows(LtoWrapperException.class, () -> LtransList.parse("x\n./a.o\n", "l.out"));
    assertEquals("corrupted ltrans output file l.out", bad.getMessage());
  }

  @Test
  void diagnosticsQuotesFollowLocale() {
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    java.io.PrintStream ps =
        new java.io.PrintStream(b, true, java.nio.charset.StandardCharsets.UTF_8);
    new Diagnostics(ps, "lto-wrapper", java.util.Map.of("LC_ALL", "C", "LANG", "en_US.UTF-8"))
        .fatal("x %<y%>");
    new Diagnostics(ps, "lto-wrapper", java.util.Map.of("LANG", "de_DE.utf8")).warning("%<z%>");
    assertEquals(
        "lto-wrapper: fatal error: x 'y'\ncompilation terminated.\nlto-wrapper: warning: \u2018z\u2019\n",
        b.toString(java.nio.charset.StandardCharsets.UTF_8));
  }
}
