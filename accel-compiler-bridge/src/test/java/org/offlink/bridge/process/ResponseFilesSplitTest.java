package org.offlink.bridge.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResponseFilesSplitTest {
  @TempDir Path dir;

  @Test
  void splitQuotesAndBackslashes() {
    assertEquals(
        List.of("a b", "c'd", "e\"f", "g h", "", "x\\y", "it's"),
        ResponseFiles.split(" 'a b'  c\\'d \"e\\\"f\" g\\ h \"\" x\\\\y 'it\\'s' "));
    assertEquals(List.of(), ResponseFiles.split(" \n\t "));
  }

  @Test
  void writeThenSplitRoundTrips() {
    List<String> args = List.of("-o", "a b", "", "q'\"\\", "tab\there");
    String text = ResponseFiles.format(args);
    assertEquals("-o\na\\ b\n\"\"\nq\\'\\\"\\\\\ntab\\\there\n", text);
    assertEquals(args, ResponseFiles.split(text));
  }

  @Test
  void expandsNestedResponseFiles() throws Exception {
    Files.writeString(dir.resolve("inner"), "-fresolution=x.res\n'y z.o'\n");
    Files.writeString(dir.resolve("outer"), "-flinker-output=pie @inner\nlast\n");
    ResponseFileExpander e = new ResponseFileExpander(dir);
    assertEquals(
        List.of(
            "lto-wrapper",
            "first",
            "-flinker-output=pie",
            "-fresolution=x.res",
            "y z.o",
            "last",
            "@missing"),
        e.expand(List.of("lto-wrapper", "first", "@outer", "@missing")));
  }

  @Test
  void emptyResponseFileYieldsNothing() throws Exception {
    Files.writeString(dir.resolve("empty"), "  \n");
    assertEquals(
        List.of("p", "a"), new ResponseFileExpander(dir).expand(List.of("p", "@empty", "a")));
  }

  @Test
  void directoryAndRecursionAreErrors() throws Exception {
    Files.createDirectory(dir.resolve("d"));
    ResponseFileExpander e = new ResponseFileExpander(dir);
    assertEquals(
        "@-file refers to a directory",
        assertThrows(
                ResponseFileExpander.ResponseFileException.class,
                () -> e.expand(List.of("p", "@d")))
            .getMessage());
    Files.writeString(dir.resolve("self"), "@self");
    assertEquals(
        "too many @-files encountered",
        assertThrows(
                ResponseFileExpander.ResponseFileException.class,
                () -> e.expand(List.of("p", "@self")))
            .getMessage());
  }
}
