package org.offlink.streamer.elf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The two cases jelf cannot handle: files over 2 GiB and extended section numbering. */
class ElfScaleTest {
  @TempDir Path tmp;

  @Test
  void readsASparseObjectLargerThan2GiB() throws IOException {
    long start = 3L << 30; // 3 GiB of hole before the first section
    TestElfBuilder b = new TestElfBuilder(ElfClass.ELF64, ElfData.LSB).dataStart(start);
    b.progbits(".gnu.offload_lto_.opts", "'-fopenmp'\0".getBytes(StandardCharsets.US_ASCII));
    TestElfBuilder.Image image = b.build();
    Path file = tmp.resolve("huge.o");
    image.writeTo(file);
    assertTrue(Files.size(file) > (2L << 30));
    try (ElfFile elf = ElfReader.read(file)) {
      assertTrue(elf.header().shoff() > Integer.MAX_VALUE);
      ElfSection opts = elf.section(".gnu.offload_lto_.opts").orElseThrow();
      assertEquals(start, opts.offset());
      assertArrayEquals(
          "'-fopenmp'\0".getBytes(StandardCharsets.US_ASCII), elf.readSectionData(opts));
    }
  }

  @Test
  void readsSeventyThousandSectionsThroughExtendedNumbering() throws IOException {
    TestElfBuilder b = new TestElfBuilder(ElfClass.ELF64, ElfData.LSB);
    for (int i = 0; i < 70_000; i++) {
      b.progbits(".s" + i, new byte[] {(byte) i});
    }
    TestElfBuilder.Image image = b.build();
    byte[] bytes = image.toBytes();
    assertEquals(0, bytes[60] | bytes[61], "e_shnum must be 0 (extended numbering)");
    assertEquals((byte) 0xff, bytes[62], "e_shstrndx must be SHN_XINDEX");
    Path file = tmp.resolve("many.o");
    Files.write(file, bytes);
    try (ElfFile elf = ElfReader.read(file)) {
      assertEquals(70_002, elf.header().shnum());
      assertEquals(70_001, elf.header().shstrndx());
      assertEquals(".shstrtab", elf.sections().get(70_001).name());
      ElfSection last = elf.section(".s69999").orElseThrow();
      assertEquals(70_000, last.index());
      assertArrayEquals(new byte[] {(byte) 69_999}, elf.readSectionData(last));
      assertEquals(11_111, elf.sectionsWithPrefix(".s6").size());
    }
  }
}
