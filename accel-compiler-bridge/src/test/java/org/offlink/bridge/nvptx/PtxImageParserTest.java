package org.offlink.bridge.nvptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.offlink.bridge.image.NvptxFunction;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.streamer.MalformedObjectException;

class PtxImageParserTest {
  private static String chunk(NvptxImage image, int i) {
    return new String(image.ptxChunks().get(i), StandardCharsets.ISO_8859_1);
  }

  @Test
  void splitsAtNulAndExtractsMaps() throws Exception {
    String ptx =
        "// BEGIN PREAMBLE\n.version 3.1\n//:VAR_MAP \"b\"\n"
            + "//:FUNC_MAP \"main$_omp_fn$0\", 0x20, 0x1, 0x40\n.target sm_30\n\0"
            + "// second\r\n//:FUNC_MAP \"main$_omp_fn$1\"\nend\n\0";
    NvptxImage image = PtxImageParser.parse(ptx);
    assertEquals(2, image.ptxChunks().size());
    assertEquals("// BEGIN PREAMBLE\n.version 3.1\n.target sm_30\n", chunk(image, 0));
    assertEquals("// second\nend\n", chunk(image, 1));
    assertEquals(List.of("b"), image.variables());
    assertEquals(
        List.of(
            new NvptxFunction("main$_omp_fn$0", 0x20, 1, 0x40),
            new NvptxFunction("main$_omp_fn$1", 0, 0, 0)),
        image.functions());
  }

  @Test
  void mapLineOnlyRecognisedAfterNewline() throws Exception {
    // GCC checks for //: only right after a newline, not at the start of a chunk
    NvptxImage image = PtxImageParser.parse("//:VAR_MAP \"x\"\nA\0");
    assertEquals("//:VAR_MAP \"x\"\nA", chunk(image, 0));
    assertTrue(image.variables().isEmpty());
  }

  @Test
  void consecutiveNulsGiveEmptyChunkAndMissingFinalNulEndsAtEof() throws Exception {
    NvptxImage image = PtxImageParser.parse("a\n\0\0b\n");
    assertEquals(
        List.of("a\n", "", "b\n"), List.of(chunk(image, 0), chunk(image, 1), chunk(image, 2)));
  }

  @Test
  void commentLinesStayAndEveryCrGoes() throws Exception {
    // A line starting with '/' that is no map line, CRs inside a line and at the end of input,
    // and a map line after a CRLF: only the map line and the CRs leave the chunk.
    NvptxImage image = PtxImageParser.parse("a\r\n// c\n/x\r\n//:VAR_MAP \"v\"\r\nb\rc\n\0d\n/\r");
    assertEquals("a\n// c\n/x\nbc\n", chunk(image, 0));
    assertEquals("d\n/", chunk(image, 1));
    assertEquals(List.of("v"), image.variables());
  }

  @Test
  void parsingInPlaceGivesTheSameImageAndParseLeavesItsInputAlone() throws Exception {
    byte[] ptx =
        ("head\r\n//:VAR_MAP \"v\"\n//:FUNC_MAP \"f\", 0x1, 0x2, 0x3\nbody\r\n\0"
                + "x\n//:VAR_MAP \"w\"\r\ny\n\0tail")
            .getBytes(StandardCharsets.ISO_8859_1);
    byte[] before = ptx.clone();
    NvptxImage copied = PtxImageParser.parse(ptx, Path.of("a.ptx"));
    assertArrayEquals(before, ptx);
    NvptxImage inPlace = PtxImageParser.parseReusing(ptx, Path.of("a.ptx"));
    assertEquals(List.of("head\nbody\n", "x\ny\n", "tail"), chunks(inPlace));
    assertEquals(chunks(copied), chunks(inPlace));
    assertEquals(copied.variables(), inPlace.variables());
    assertEquals(List.of("v", "w"), inPlace.variables());
    assertEquals(copied.functions(), inPlace.functions());
  }

  @Test
  void theScanLoopWarmUpParsesItsSyntheticTextCleanly() {
    assertTrue(PtxImageParser.WARM_UP_BYTES > 60_000, "below the JIT's loop threshold");
    PtxImageParser.exerciseScanLoop(); // throws if its text stopped being valid PTX
  }

  private static List<String> chunks(NvptxImage image) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < image.ptxChunks().size(); i++) {
      out.add(chunk(image, i));
    }
    return out;
  }

  @Test
  void zeroDimsAndDecimalAndOctal() throws Exception {
    NvptxImage image = PtxImageParser.parse("x\n//:FUNC_MAP \"f\", 0, 10, 010\n\0");
    assertEquals(List.of(new NvptxFunction("f", 0, 10, 8)), image.functions());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "x\n//:BOGUS \"a\"\n\0", // bad_directive: GCC aborts
        "x\n//:VAR_MAP \"a\"\0", // bad_no_newline: "malformed ptx file"
        "x\n//:VAR_MAP a\n\0", // bad_unquoted
        "x\n//:FUNC_MAP \"f\", 0x10000\n\0", // bad_dim_range
        "x\n//:FUNC_MAP \"f\" 0x1\n\0", // bad_missing_comma
        "x\n//:FUNC_MAP \"f\", 1, 2, 3, 4\n\0", // bad_too_many_dims
      })
  void malformedMapsAreCleanErrors(String ptx) {
    MalformedObjectException e =
        assertThrows(MalformedObjectException.class, () -> PtxImageParser.parse(ptx));
    assertTrue(e.getMessage().startsWith("<string> (at offset 0x"), e.getMessage());
    assertEquals(1, e.getMessage().lines().count());
  }
}
