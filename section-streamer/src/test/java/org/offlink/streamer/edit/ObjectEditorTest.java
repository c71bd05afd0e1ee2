package org.offlink.streamer.edit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.runtime.LinkScope;
import org.offlink.streamer.elf.ElfClass;
import org.offlink.streamer.elf.ElfData;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;
import org.offlink.streamer.elf.ElfRelocation;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.elf.ElfSymbol;
import org.offlink.streamer.elf.SectionFlags;
import org.offlink.streamer.elf.SectionType;
import org.offlink.streamer.elf.TestElfBuilder;
import org.offlink.streamer.elf.TestElfBuilder.Sec;
import org.offlink.streamer.elf.TestElfBuilder.Sym;

class ObjectEditorTest {
  private static final LinkScope SCOPE = LinkScope.withUmask(022);

  @TempDir Path tmp;

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] rela(long offset, long sym, long type, long addend) {
    return ByteBuffer.allocate(24)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putLong(offset)
        .putLong(sym << 32 | type)
        .putLong(addend)
        .array();
  }

  /**
   * Shaped like a GCC host object: 1 .text, 2 IR, 3 .gnu.offload_funcs, 4 .symtab, 5 .strtab, 6
   * .rela.gnu.offload_funcs, 7 .rela.text, 8 .shstrtab.
   */
  private Path hostObject() throws IOException {
    TestElfBuilder b = new TestElfBuilder(ElfClass.ELF64, ElfData.LSB);
    b.section(
        new Sec(
            ".text",
            1,
            SectionFlags.ALLOC | SectionFlags.EXECINSTR,
            ascii("CODECODE"),
            0,
            0,
            16,
            0));
    b.section(
        new Sec(
            ".gnu.offload_lto_.opts", 1, SectionFlags.EXCLUDE, ascii("'-fopenmp'\0"), 0, 0, 1, 0));
    b.section(
        new Sec(
            ".gnu.offload_funcs",
            1,
            SectionFlags.ALLOC | SectionFlags.WRITE,
            new byte[8],
            0,
            0,
            8,
            0));
    int symtab =
        b.symtab(
            List.of(
                new Sym("", 0, 0, 0x03, 0, 1), // 1: section .text
                new Sym("", 0, 0, 0x03, 0, 3), // 2: section .gnu.offload_funcs
                new Sym(".offload_func_table", 0, 8, 0x01, 0, 3), // 3: local in the table
                new Sym("main", 0, 8, 0x12, 0, 1), // 4: global
                new Sym("GOMP_target_ext", 0, 0, 0x10, 0, 0)), // 5: undefined
            4);
    b.section(
        new Sec(
            ".rela.gnu.offload_funcs",
            4,
            SectionFlags.INFO_LINK,
            rela(0, 1, 1, 4),
            symtab,
            3,
            8,
            24));
    b.section(
        new Sec(".rela.text", 4, SectionFlags.INFO_LINK, rela(2, 5, 4, -4), symtab, 1, 8, 24));
    Path p = tmp.resolve("host.o");
    b.build().writeTo(p);
    return p;
  }

  @Test
  void strippingOffloadSectionsRepairsSymbolsAndRelocations() throws IOException {
    Path in = hostObject();
    Path out = tmp.resolve("stripped.o");
    ObjectEditor.builder()
        .removeSections(ObjectEditor.OFFLOAD_SECTIONS)
        .build()
        .apply(SCOPE, in, out);
    try (ElfFile elf = ElfReader.read(out)) {
      assertEquals(
          List.of("", ".text", ".symtab", ".strtab", ".rela.text", ".shstrtab"),
          elf.sections().stream().map(ElfSection::name).toList());
      assertArrayEquals(ascii("CODECODE"), elf.readSectionData(elf.section(".text").orElseThrow()));
      List<ElfSymbol> syms = elf.symbols();
      assertEquals(
          List.of("", "", "main", "GOMP_target_ext"), syms.stream().map(ElfSymbol::name).toList());
      ElfSection symtab = elf.section(".symtab").orElseThrow();
      assertEquals(2, symtab.info(), "first global moved from 4 to 2");
      assertEquals(3, symtab.link(), ".strtab moved to index 3");
      assertEquals(1, syms.get(2).sectionIndex());
      ElfSection relaText = elf.section(".rela.text").orElseThrow();
      assertEquals(2, relaText.link());
      assertEquals(1, relaText.info());
      assertEquals(List.of(new ElfRelocation(2, 3, 4, -4)), elf.relocations(relaText));
      assertEquals(5, elf.header().shstrndx());
    }
  }

  @Test
  void renameReplaceAndAddReadBack() throws IOException {
    Path in = tmp.resolve("legacy.o");
    TestElfBuilder b = new TestElfBuilder(ElfClass.ELF64, ElfData.LSB);
    b.progbits(".text", ascii("T"));
    b.progbits(".gnu.target_lto_.opts", ascii("'-O2'\0"));
    b.progbits(".gnu.target_lto_main.0.abc", ascii("IR"));
    b.build().writeTo(in);
    Path out = tmp.resolve("modern.o");
    ObjectEditor.builder()
        .renameSections(ObjectEditor.LEGACY_TARGET_LTO_PREFIX, ObjectEditor.OFFLOAD_LTO_PREFIX)
        .replaceSectionData(".gnu.offload_lto_.opts", ascii("'-fopenmp' '-O2'\0"))
        .addSection(
            ".gnu.offload_lto_.extra", SectionType.PROGBITS, SectionFlags.EXCLUDE, 8, ascii("NEW"))
        .addSection(".mybss", SectionType.NOBITS, SectionFlags.ALLOC, 16, new byte[32])
        .build()
        .apply(SCOPE, in, out);
    try (ElfFile elf = ElfReader.read(out)) {
      assertTrue(elf.sectionsWithPrefix(".gnu.target_lto_").isEmpty());
      assertEquals(3, elf.sectionsWithPrefix(".gnu.offload_lto_").size());
      assertArrayEquals(
          ascii("'-fopenmp' '-O2'\0"),
          elf.readSectionData(elf.section(".gnu.offload_lto_.opts").orElseThrow()));
      assertArrayEquals(
          ascii("IR"),
          elf.readSectionData(elf.section(".gnu.offload_lto_main.0.abc").orElseThrow()));
      ElfSection extra = elf.section(".gnu.offload_lto_.extra").orElseThrow();
      assertArrayEquals(ascii("NEW"), elf.readSectionData(extra));
      assertEquals(0, extra.offset() % 8);
      assertTrue(extra.hasFlags(SectionFlags.EXCLUDE));
      ElfSection bss = elf.section(".mybss").orElseThrow();
      assertEquals(SectionType.NOBITS, bss.type());
      assertEquals(32, bss.size());
    }
  }

  @Test
  void outputIsDeterministicAndInPlaceEditingWorks() throws IOException {
    Path in = hostObject();
    ObjectEditor strip =
        ObjectEditor.builder().removeSections(ObjectEditor.OFFLOAD_SECTIONS).build();
    Path a = tmp.resolve("a.o");
    Path b = tmp.resolve("b.o");
    strip.apply(SCOPE, in, a);
    strip.apply(SCOPE, in, b);
    assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
    strip.apply(SCOPE, in, in);
    assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(in));
    try (var files = Files.list(tmp)) {
      assertFalse(files.anyMatch(p -> p.toString().endsWith(".tmp")), "temp files left behind");
    }
  }

  @Test
  void aHugeAlignmentIsKeptWithoutWritingItsPadding() throws IOException {
    // sh_addralign = 2^40 once made strip/rename/add write hundreds of MB of zeros.
    TestElfBuilder b = new TestElfBuilder(ElfClass.ELF64, ElfData.LSB);
    b.section(new Sec(".text", 1, SectionFlags.ALLOC, ascii("CODE"), 0, 0, 16, 0));
    b.section(new Sec(".big", 1, SectionFlags.ALLOC, ascii("DATA"), 0, 0, 16, 0));
    TestElfBuilder.Image img = b.build();
    byte[] bytes = img.toBytes();
    // Section 2's sh_addralign (offset 48 in an Elf64_Shdr) becomes 2^40.
    TestElfBuilder.patch(bytes, ByteOrder.LITTLE_ENDIAN, img.shoff() + 2 * 64 + 48, 8, 1L << 40);
    Path in = tmp.resolve("aligned.o");
    Files.write(in, bytes);
    Path out = tmp.resolve("renamed.o");
    ObjectEditor.builder().renameSections(".big", ".huge").build().apply(SCOPE, in, out);
    assertTrue(Files.size(out) < 16384, "output of " + Files.size(out) + " bytes");
    try (ElfFile after = ElfReader.read(out)) {
      ElfSection s = after.section(".huge").orElseThrow();
      assertEquals(1L << 40, s.addralign());
      assertEquals(0, s.offset() % 4096);
      assertArrayEquals(ascii("DATA"), after.readSectionData(s));
    }
  }

  @Test
  void noEditsKeepEverySectionByteForByte() throws IOException {
    Path in = hostObject();
    Path out = tmp.resolve("same.o");
    ObjectEditor.builder().build().apply(SCOPE, in, out);
    try (ElfFile before = ElfReader.read(in);
        ElfFile after = ElfReader.read(out)) {
      assertEquals(before.sections().size(), after.sections().size());
      for (int i = 0; i < before.sections().size(); i++) {
        ElfSection x = before.sections().get(i);
        ElfSection y = after.sections().get(i);
        assertEquals(x.name(), y.name());
        assertEquals(x.link(), y.link());
        assertEquals(x.info(), y.info());
        assertArrayEquals(before.readSectionData(x), after.readSectionData(y), x.name());
      }
    }
  }

  @Test
  void removingASectionStillUsedByARelocationFails() throws IOException {
    Path in = hostObject();
    ObjectEditor bad = ObjectEditor.builder().removeSections(".text"::equals).build();
    ObjectEditException e =
        assertThrows(ObjectEditException.class, () -> bad.apply(SCOPE, in, tmp.resolve("x.o")));
    assertTrue(
        e.getMessage().contains("host.o") && e.getMessage().contains("expected"), e.getMessage());
    assertFalse(Files.exists(tmp.resolve("x.o")));
  }

  @Test
  void unsupportedObjectsAndMissingSectionsFailClearly() throws IOException {
    Path big = tmp.resolve("be32.o");
    new TestElfBuilder(ElfClass.ELF32, ElfData.MSB).build().writeTo(big);
    ObjectEditor none = ObjectEditor.builder().build();
    ObjectEditException e =
        assertThrows(ObjectEditException.class, () -> none.apply(SCOPE, big, tmp.resolve("o")));
    assertTrue(
        e.getMessage().contains("unsupported") && e.getMessage().contains("ELF32"), e.getMessage());
    ObjectEditor replace = ObjectEditor.builder().replaceSectionData(".nope", new byte[1]).build();
    Path in = hostObject();
    e = assertThrows(ObjectEditException.class, () -> replace.apply(SCOPE, in, tmp.resolve("o")));
    assertTrue(e.getMessage().contains(".nope"), e.getMessage());
    ObjectEditor dup =
        ObjectEditor.builder().addSection(".text", SectionType.PROGBITS, 0, 1, new byte[1]).build();
    assertThrows(ObjectEditException.class, () -> dup.apply(SCOPE, in, tmp.resolve("o")));
  }

  @Test
  void editsKeepExtendedNumberingWorking() throws IOException {
    TestElfBuilder b = new TestElfBuilder(ElfClass.ELF64, ElfData.LSB);
    for (int i = 0; i < 80_000; i++) {
      b.progbits(".gnu.offload_lto_f" + i, new byte[] {(byte) i});
    }
    b.progbits(".text", ascii("T"));
    Path in = tmp.resolve("many.o");
    b.build().writeTo(in);
    Path out = tmp.resolve("many-renamed.o");
    ObjectEditor.builder()
        .removeSections(n -> n.startsWith(".gnu.offload_lto_f1"))
        .renameSections(".gnu.offload_lto_", ".gnu.target_lto_")
        .build()
        .apply(SCOPE, in, out);
    try (ElfFile elf = ElfReader.read(out)) {
      int removed = 1 + 10 + 100 + 1000 + 10_000;
      assertEquals(80_000 - removed + 3, elf.sections().size());
      assertTrue(elf.sections().size() >= 0xff00);
      assertArrayEquals(
          new byte[] {(byte) 79_999},
          elf.readSectionData(elf.section(".gnu.target_lto_f79999").orElseThrow()));
      assertArrayEquals(ascii("T"), elf.readSectionData(elf.section(".text").orElseThrow()));
    }
  }
}
