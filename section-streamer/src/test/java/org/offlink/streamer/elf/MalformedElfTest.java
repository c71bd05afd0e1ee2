package org.offlink.streamer.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.offlink.streamer.MalformedObjectException;

/** The named corpus of malformed objects; every one must give a clean one-line error. */
class MalformedElfTest {
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
  private static final int SHDR = 64;

  @TempDir Path tmp;

  /** Fields of the ELF64 LSB sample, see {@link ElfReaderTest#sample}. */
  private static final int TEXT = 1;

  private static final int SYMTAB = 5;

  private static Map<String, Function<TestElfBuilder.Image, byte[]>> corpus() {
    Map<String, Function<TestElfBuilder.Image, byte[]>> m = new LinkedHashMap<>();
    m.put("bad_empty_file", img -> new byte[0]);
    m.put("bad_truncated_header", img -> Arrays.copyOf(img.toBytes(), 30));
    m.put("bad_truncated_ident", img -> Arrays.copyOf(img.toBytes(), 9));
    m.put("bad_magic", img -> patch(img, 1, 1, 'X'));
    m.put("bad_class", img -> patch(img, 4, 1, 3));
    m.put("bad_data_encoding", img -> patch(img, 5, 1, 0));
    m.put("bad_section_table_out_of_bounds", img -> patch(img, 60, 2, 500));
    m.put("bad_offset_past_end_of_file", img -> patch(img, 40, 8, img.length() + 1000));
    m.put("bad_shoff_negative", img -> patch(img, 40, 8, -64));
    m.put("bad_shentsize", img -> patch(img, 58, 2, 32));
    m.put("bad_shstrndx", img -> patch(img, 62, 2, 200));
    m.put("bad_shstrndx_not_strtab", img -> patch(img, 62, 2, TEXT));
    m.put("bad_shstrndx_xindex_link", img -> patch(patch(img, 62, 2, 0xffff), img, 0, 40, 4, 77));
    m.put(
        "bad_extended_count_past_eof",
        img -> patch(patch(img, 60, 2, 0), img, 0, 32, 8, 1_000_000));
    m.put("bad_string_index_out_of_range", img -> patchShdr(img, TEXT, 0, 4, 100_000));
    m.put("bad_string_unterminated", img -> patch(img, img.shoff() - 1, 1, 'x'));
    m.put("bad_section_past_eof", img -> patchShdr(img, TEXT, 24, 8, img.length() - 2));
    m.put("bad_section_size_huge", img -> patchShdr(img, TEXT, 32, 8, Long.MAX_VALUE));
    m.put("bad_section_size_unsigned_overflow", img -> patchShdr(img, TEXT, 32, 8, -1));
    m.put("bad_symtab_entsize", img -> patchShdr(img, SYMTAB, 56, 8, 7));
    m.put("bad_symtab_link", img -> patchShdr(img, SYMTAB, 40, 4, 99));
    m.put(
        "bad_symbol_name_out_of_range",
        img -> patch(img, img.dataOffsets()[SYMTAB] + 24, 4, 99_999));
    return m;
  }

  private static byte[] patch(TestElfBuilder.Image img, long offset, int width, long value) {
    byte[] b = img.toBytes();
    TestElfBuilder.patch(b, LE, offset, width, value);
    return b;
  }

  private static byte[] patch(
      byte[] b, TestElfBuilder.Image img, int section, int field, int width, long value) {
    TestElfBuilder.patch(b, LE, img.shoff() + (long) section * SHDR + field, width, value);
    return b;
  }

  private static byte[] patchShdr(
      TestElfBuilder.Image img, int section, int field, int width, long value) {
    return patch(img.toBytes(), img, section, field, width, value);
  }

  static Stream<Arguments> malformed() {
    return corpus().keySet().stream().map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void malformedInputGivesACleanOneLineError(String name) throws IOException {
    TestElfBuilder.Image img = ElfReaderTest.sample(ElfClass.ELF64, ElfData.LSB).build();
    Path file = tmp.resolve(name + ".o");
    Files.write(file, corpus().get(name).apply(img));
    MalformedObjectException e =
        assertThrows(MalformedObjectException.class, () -> readEverything(file));
    assertTrue(e.getMessage().contains(name + ".o"), e.getMessage());
    assertTrue(e.getMessage().contains("expected"), e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
    assertTrue(e.file().equals(file), e.getMessage());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void theSameBytesInMemoryGiveTheSameError(String name) throws IOException {
    TestElfBuilder.Image img = ElfReaderTest.sample(ElfClass.ELF64, ElfData.LSB).build();
    Path file = tmp.resolve(name + ".o");
    byte[] bytes = corpus().get(name).apply(img);
    Files.write(file, bytes);
    MalformedObjectException fromFile =
        assertThrows(MalformedObjectException.class, () -> readEverything(file));
    MalformedObjectException fromMemory =
        assertThrows(
            MalformedObjectException.class, () -> readEverything(ElfReader.read(file, bytes)));
    assertEquals(fromFile.getMessage(), fromMemory.getMessage());
  }

  @Test
  void theUnpatchedSampleReadsCleanly() throws IOException {
    Path file = tmp.resolve("good.o");
    Files.write(file, ElfReaderTest.sample(ElfClass.ELF64, ElfData.LSB).build().toBytes());
    readEverything(file);
  }

  @Test
  void anObjectWindowPastTheEndOfTheFileIsRejected() throws IOException {
    Path file = tmp.resolve("lib.a");
    Files.write(file, new byte[100]);
    MalformedObjectException e =
        assertThrows(MalformedObjectException.class, () -> ElfReader.read(file, 60, 41));
    assertTrue(e.getMessage().contains("lib.a"), e.getMessage());
  }

  @Test
  void aSparseObjectDeclaringMillionsOfSectionsIsRejectedNamingTheLimit() throws IOException {
    // 33 million section headers fit in a 2 GB sparse file; reading them would need gigabytes.
    TestElfBuilder.Image img = ElfReaderTest.sample(ElfClass.ELF64, ElfData.LSB).build();
    long count = 33_000_000;
    byte[] b = patch(patch(img, 60, 2, 0), img, 0, 32, 8, count);
    Path file = tmp.resolve("sparse.o");
    Files.write(file, b);
    try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(img.shoff() + count * SHDR);
    }
    MalformedObjectException e =
        assertThrows(MalformedObjectException.class, () -> ElfReader.read(file).close());
    assertTrue(e.getMessage().contains("sparse.o"), e.getMessage());
    assertTrue(e.getMessage().contains("at most " + ElfReader.MAX_SECTIONS), e.getMessage());
    assertTrue(e.getMessage().contains("found " + count), e.getMessage());
  }

  /** Touches every part of the object the model can decode. */
  static void readEverything(Path file) throws IOException {
    readEverything(ElfReader.read(file));
  }

  /** Touches every part of {@code opened} the model can decode, then closes it. */
  static void readEverything(ElfFile opened) throws IOException {
    try (ElfFile elf = opened) {
      for (ElfSection s : elf.sections()) {
        elf.readSectionData(s);
        if (s.type() == SectionType.SYMTAB) {
          elf.symbols(s);
        } else if (s.type() == SectionType.RELA || s.type() == SectionType.REL) {
          elf.relocations(s);
        }
      }
    }
  }
}
