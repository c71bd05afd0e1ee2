package org.offlink.ltowrapper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.offlink.ltowrapper.io.OptsSectionName;

/**
 * Which link-time options give early debug objects (GCC 12: the last {@code -g<level>} decides;
 * {@code -ggdb}, {@code -gdwarf-N} do not undo {@code -g0}, unlike GCC 13), their names with and
 * without {@code -save-temps}, the {@code lib.a@0xOFF} member spelling, their place after the LTO
 * outputs on stdout, and no renaming for {@code -flinker-output=rel}.
 */
class EarlyDebugOptionsTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "'', exec, '$TMP/ccXXXXXX.lto.o|$TMP/ccXXXXXX.debug.temp.o|$TMP/ccXXXXXX.debug.temp.o'",
    "'-g0', exec, '$TMP/ccXXXXXX.lto.o'",
    "'-g0 -ggdb', exec, '$TMP/ccXXXXXX.lto.o'",
    "'-g0 -gdwarf-4', exec, '$TMP/ccXXXXXX.lto.o'",
    "'-g0 -g', exec, '$TMP/ccXXXXXX.lto.o|$TMP/ccXXXXXX.debug.temp.o|$TMP/ccXXXXXX.debug.temp.o'",
    "'-g -g0 -g1', exec, '$TMP/ccXXXXXX.lto.o|$TMP/ccXXXXXX.debug.temp.o|$TMP/ccXXXXXX.debug.temp.o'",
    "'-save-temps', exec, './a.lto.o|x.o.debug.temp.o|libx.a@0x53c.debug.temp.o'",
    "'-save-temps -g0', rel, './a.lto.o'",
    "'-save-temps', rel, './a.lto.o|x.o.debug.temp.o|libx.a@0x53c.debug.temp.o'",
  })
  void earlyDebugObjects(String options, String linkerOutput, String expected) throws IOException {
    Harness h = new Harness(dir);
    StringBuilder quoted = new StringBuilder("'-o' 'a' '-flto-partition=none'");
    for (String o : options.split(" ")) {
      if (!o.isEmpty()) {
        quoted.append(" '").append(o).append('\'');
      }
    }
    h.env.put("COLLECT_GCC_OPTIONS", quoted.toString());
    h.object("x.o", OptsSectionName.HOST_LTO, "'-O2' '-flto' '-g'");
    h.object("libx.a@0x53c", OptsSectionName.HOST_LTO, "'-O2' '-flto' '-g'");
    h.earlyDebug.put("x.o", "x");
    h.earlyDebug.put("libx.a@0x53c", "member");
    int status =
        h.run(
            LtoWrapperGoldenTest.produce(0),
            "-flinker-output=" + linkerOutput,
            "x.o",
            "libx.a@0x53c");
    assertEquals(0, status, h.err());
    assertEquals(expected.replace('|', '\n') + "\n", h.out());
    if (options.contains("-save-temps") && !options.contains("-g0")) {
      String suffix = linkerOutput.equals("rel") ? "" : " renamed";
      assertEquals("x" + suffix, Files.readString(dir.resolve("x.o.debug.temp.o")));
      assertEquals("member" + suffix, Files.readString(dir.resolve("libx.a@0x53c.debug.temp.o")));
    }
  }
}
