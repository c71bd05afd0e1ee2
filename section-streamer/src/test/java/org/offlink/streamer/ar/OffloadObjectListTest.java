package org.offlink.streamer.ar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.streamer.MalformedObjectException;

class OffloadObjectListTest {
  private static final Path F = Path.of("x.ofldlist");

  @TempDir Path dir;

  @Test
  void writesAndReadsBack() throws Exception {
    OffloadObjectList list =
        new OffloadObjectList(List.of("libx.a@0x53c", "dir with space/y.o", "a@b.o"));
    Path file = dir.resolve("a.ofldlist");
    OffloadObjectListWriter.write(file, list);

    assertEquals("3\nlibx.a@0x53c\ndir with space/y.o\na@b.o\n", Files.readString(file));
    assertEquals(list, OffloadObjectListReader.read(file));
  }

  @Test
  void toleratesWhatFscanfAndFgetsTolerate() throws Exception {
    assertEquals(
        List.of("x.o", "", "y.o"),
        OffloadObjectListReader.parse(F, " +3 \n\n  x.o\n\ny.o\nextra\n").entries());
    assertEquals(List.of(), OffloadObjectListReader.parse(F, "0\n").entries());
  }

  @Test
  void errorsUseGccWording() {
    MalformedObjectException noCount =
        assertThrows(
            MalformedObjectException.class, () -> OffloadObjectListReader.parse(F, "abc\n"));
    assertEquals(
        "x.ofldlist (at offset 0x0): cannot read x.ofldlist: expected an object count, found 'abc\\n'",
        noCount.getMessage());
    MalformedObjectException tooFew =
        assertThrows(
            MalformedObjectException.class, () -> OffloadObjectListReader.parse(F, "2\na.o\nb.o"));
    assertEquals(
        "x.ofldlist: invalid format of x.ofldlist: expected 2 names, found 1", tooFew.getMessage());
  }

  @Test
  void namesWithNewlinesCannotBeWritten() {
    assertThrows(IllegalArgumentException.class, () -> new OffloadObjectList(List.of("a\nb")));
  }
}
