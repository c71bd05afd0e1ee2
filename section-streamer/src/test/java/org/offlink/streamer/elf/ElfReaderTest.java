package org.offlink.streamer.elf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ElfReaderTest {
  @TempDir Path tmp;

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** An object with code, bss, a note, symbols and RELA relocations in the given variant. */
  static TestElfBuilder sample(ElfClass c, ElfData d) {
    TestElfBuilder b = new TestElfBuilder(c, d).machine(ElfMachine.AMDGPU).flags(0x30);
    int text =
        b.section(
            new TestElfBuilder.Sec(
                ".text",
                1,
                SectionFlags.ALLOC | SectionFlags.EXECINSTR,
                ascii("CODE!"),
                0,
                0,
                16,
                0));
    b.section(new TestElfBuilder.Sec(".bss", 8, 3, new byte[64], 0, 0, 32, 0));
    b.section(new TestElfBuilder.Sec(".note.x", 7, 0, new byte[12], 0, 0, 4, 0));
    b.progbits(".gnu.offload_lto_.opts", ascii("'-fopenmp'\0"));
    int symtab =
        b.symtab(
            List.of(
                new TestElfBuilder.Sym("x.c", 0, 0, 0x04, 0, ElfSymbol.SHN_ABS),
                new TestElfBuilder.Sym("", 0, 0, 0x03, 0, text),
                new TestElfBuilder.Sym("main", 1, 4, 0x12, 2, text),
                new TestElfBuilder.Sym("printf", 0, 0, 0x10, 0, 0)),
            3);
    boolean is64 = c == ElfClass.ELF64;
    ByteBuffer rela = ByteBuffer.allocate(is64 ? 48 : 24).order(d.byteOrder());
    for (int i = 0; i < 2; i++) {
      long sym = 3 + i;
      long type = 2 + i;
      if (is64) {
        rela.putLong(i * 4L).putLong(sym << 32 | type).putLong(-4 - i);
      } else {
        rela.putInt(i * 4).putInt((int) (sym << 8 | type)).putInt(-4 - i);
      }
    }
    b.section(
        new TestElfBuilder.Sec(
            ".rela.text",
            4,
            SectionFlags.INFO_LINK,
            rela.array(),
            symtab,
            text,
            8,
            is64 ? 24 : 12));
    return b;
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"ELF32,LSB", "ELF32,MSB", "ELF64,LSB", "ELF64,MSB"})
  void readsEveryClassAndByteOrder(ElfClass c, ElfData d) throws IOException {
    Path file = tmp.resolve("sample.o");
    Files.write(file, sample(c, d).build().toBytes());
    try (ElfFile elf = ElfReader.read(file)) {
      ElfHeader h = elf.header();
      assertEquals(c, h.elfClass());
      assertEquals(d, h.data());
      assertEquals(ElfType.REL, h.type());
      assertEquals(ElfMachine.AMDGPU, h.machine());
      assertEquals(0x30, h.flags());
      assertEquals(0x401000, h.entry());
      assertEquals(9, h.shnum());
      assertEquals(8, h.shstrndx());
      assertEquals(
          List.of(
              "",
              ".text",
              ".bss",
              ".note.x",
              ".gnu.offload_lto_.opts",
              ".symtab",
              ".strtab",
              ".rela.text",
              ".shstrtab"),
          elf.sections().stream().map(ElfSection::name).toList());
      ElfSection text = elf.section(".text").orElseThrow();
      assertEquals(SectionType.PROGBITS, text.type());
      assertTrue(text.hasFlags(SectionFlags.EXECINSTR));
      assertEquals(16, text.addralign());
      assertEquals(0, text.offset() % 16);
      assertArrayEquals(ascii("CODE!"), elf.readSectionData(text));
      ElfSection bss = elf.section(".bss").orElseThrow();
      assertEquals(SectionType.NOBITS, bss.type());
      assertEquals(64, bss.size());
      assertEquals(0, elf.readSectionData(bss).length);
      assertEquals(SectionType.NOTE, elf.section(".note.x").orElseThrow().type());
      assertEquals(1, elf.sectionsWithPrefix(".gnu.offload_lto_").size());

      List<ElfSymbol> syms = elf.symbols();
      assertEquals(5, syms.size());
      ElfSymbol main = syms.get(3);
      assertEquals("main", main.name());
      assertEquals(SymbolBinding.GLOBAL, main.binding());
      assertEquals(SymbolType.FUNC, main.type());
      assertEquals(SymbolVisibility.HIDDEN, main.visibility());
      assertEquals(1, main.sectionIndex());
      assertEquals(4, main.size());
      assertEquals(SymbolType.FILE, syms.get(1).type());
      assertEquals(ElfSymbol.SHN_ABS, syms.get(1).sectionIndex());
      assertEquals(SymbolType.SECTION, syms.get(2).type());
      assertEquals(SymbolBinding.LOCAL, syms.get(2).binding());

      List<ElfRelocation> rel = elf.relocations(elf.section(".rela.text").orElseThrow());
      assertEquals(List.of(new ElfRelocation(0, 3, 2, -4), new ElfRelocation(4, 4, 3, -5)), rel);
    }
  }

  @Test
  void readsAnObjectEmbeddedAtAnOffset() throws IOException {
    byte[] obj = sample(ElfClass.ELF64, ElfData.LSB).build().toBytes();
    byte[] archive = new byte[1000 + obj.length + 77];
    System.arraycopy(obj, 0, archive, 1000, obj.length);
    Path file = tmp.resolve("lib.a");
    Files.write(file, archive);
    try (ElfFile elf = ElfReader.read(file, 1000, obj.length)) {
      assertEquals(1000, elf.baseOffset());
      ElfSection text = elf.section(".text").orElseThrow();
      assertTrue(text.offset() < obj.length, "offsets are relative to the member");
      assertArrayEquals(ascii("CODE!"), elf.readSectionData(text));
      assertEquals("main", elf.symbols().get(3).name());
    }
  }

  @Test
  void readsAnObjectInMemoryAsFromAFile() throws IOException {
    byte[] obj = sample(ElfClass.ELF64, ElfData.LSB).build().toBytes();
    Path file = tmp.resolve("x.o");
    Files.write(file, obj);
    try (ElfFile disk = ElfReader.read(file);
        ElfFile memory = ElfReader.read(Path.of("entry"), obj)) {
      assertEquals(disk.sections(), memory.sections());
      assertEquals(disk.symbols(), memory.symbols());
      ElfSection rela = memory.section(".rela.text").orElseThrow();
      assertEquals(disk.relocations(rela), memory.relocations(rela));
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      memory.transferSectionData(
          memory.section(".text").orElseThrow(), java.nio.channels.Channels.newChannel(out));
      assertArrayEquals(ascii("CODE!"), out.toByteArray());
      assertEquals(Path.of("entry"), memory.path());
    }
  }

  @Test
  void executableAndSharedTypesAreNamed() throws IOException {
    for (int type : new int[] {2, 3, 0xfe00}) {
      Path file = tmp.resolve("t" + type);
      Files.write(
          file, new TestElfBuilder(ElfClass.ELF64, ElfData.LSB).type(type).build().toBytes());
      try (ElfFile elf = ElfReader.read(file)) {
        assertEquals(type, elf.header().rawType());
        assertEquals(
            type == 2 ? ElfType.EXEC : type == 3 ? ElfType.DYN : ElfType.UNKNOWN,
            elf.header().type());
      }
    }
  }
}
