package org.offlink.streamer.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.offlink.streamer.testing.Toolchain;

/** Objects built by the real gcc-12/gfortran-12 read the same as {@code readelf} and jelf say. */
class GccObjectTest {
  private static final Pattern READELF_LINE =
      Pattern.compile(
          "^\\s*\\[\\s*(\\d+)\\]\\s+(\\S+)\\s+(\\S+)\\s+([0-9a-f]+)\\s+([0-9a-f]+)\\s+([0-9a-f]+)"
              + "\\s+([0-9a-f]+)\\s.*$");

  @TempDir Path tmp;

  /** One parsed {@code readelf -S -W} row. */
  record Row(int index, String name, String type, long offset, long size, long entsize) {}

  static List<Row> readelfSections(Path obj) throws Exception {
    String out = Toolchain.check(obj.getParent(), List.of("readelf", "-S", "-W", obj.toString()));
    List<Row> rows = new ArrayList<>();
    for (String line : out.split("\n")) {
      Matcher m = READELF_LINE.matcher(line);
      if (m.matches() && !m.group(1).equals("0")) {
        rows.add(
            new Row(
                Integer.parseInt(m.group(1)),
                m.group(2),
                m.group(3),
                Long.parseLong(m.group(5), 16),
                Long.parseLong(m.group(6), 16),
                Long.parseLong(m.group(7), 16)));
      }
    }
    return rows;
  }

  private Path build(String variant) throws Exception {
    return switch (variant) {
      case "c" -> Toolchain.compile(tmp, "gcc-12", "x.c", Toolchain.OFFLOAD_C);
      case "c-flto" -> Toolchain.compile(tmp, "gcc-12", "x.c", Toolchain.OFFLOAD_C, "-flto");
      case "fortran" -> Toolchain.compile(tmp, "gfortran-12", "p.f90", Toolchain.OFFLOAD_F90);
      default -> throw new IllegalArgumentException(variant);
    };
  }

  @ParameterizedTest
  @ValueSource(strings = {"c", "c-flto", "fortran"})
  void sectionsMatchReadelf(String variant) throws Exception {
    Path obj = build(variant);
    List<Row> rows = readelfSections(obj);
    assertTrue(rows.size() > 10, "readelf parse found " + rows.size() + " rows");
    try (ElfFile elf = ElfReader.read(obj)) {
      assertEquals(ElfClass.ELF64, elf.header().elfClass());
      assertEquals(ElfType.REL, elf.header().type());
      assertEquals(ElfMachine.X86_64, elf.header().machine());
      assertEquals(rows.size() + 1, elf.sections().size());
      for (Row r : rows) {
        ElfSection s = elf.sections().get(r.index());
        assertEquals(r.name(), s.name());
        assertEquals(r.type(), s.type().name(), s.name());
        assertEquals(r.offset(), s.offset(), s.name());
        assertEquals(r.size(), s.size(), s.name());
        assertEquals(r.entsize(), s.entsize(), s.name());
        if (s.hasFileData()) {
          assertEquals(s.size(), elf.readSectionData(s).length, s.name());
        }
      }
      ElfSection opts = elf.section(".gnu.offload_lto_.opts").orElseThrow();
      assertTrue(opts.hasFlags(SectionFlags.EXCLUDE));
      String text = new String(elf.readSectionData(opts), java.nio.charset.StandardCharsets.UTF_8);
      assertTrue(text.contains("'-fopenmp'"), text);
      assertFalse(elf.sectionsWithPrefix(".gnu.offload_lto_").isEmpty());
      // With -flto the host tables are only made at link time.
      assertEquals(!variant.equals("c-flto"), elf.section(".gnu.offload_funcs").isPresent());
      assertEquals(variant.equals("c-flto"), elf.section(".gnu.lto_.opts").isPresent());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"c", "fortran"})
  void symbolsAndRelocationsMatchJelf(String variant) throws Exception {
    Path obj = build(variant);
    net.fornwall.jelf.ElfFile oracle = net.fornwall.jelf.ElfFile.from(Files.readAllBytes(obj));
    net.fornwall.jelf.ElfSymbol[] expected = oracle.getSymbolTableSection().symbols;
    try (ElfFile elf = ElfReader.read(obj)) {
      List<ElfSymbol> actual = elf.symbols();
      assertEquals(expected.length, actual.size());
      for (int i = 0; i < expected.length; i++) {
        ElfSymbol a = actual.get(i);
        assertEquals(expected[i].getName() == null ? "" : expected[i].getName(), a.name());
        assertEquals(expected[i].st_value, a.value());
        assertEquals(expected[i].st_size, a.size());
        assertEquals(expected[i].st_info & 0xff, a.info());
        assertEquals(expected[i].st_shndx & 0xffff, a.sectionIndex());
      }
      assertTrue(actual.stream().anyMatch(s -> s.name().equals("main")));
      ElfSection rela = elf.section(".rela.gnu.offload_funcs").orElseThrow();
      List<ElfRelocation> relocs = elf.relocations(rela);
      assertEquals(1, relocs.size());
      ElfSymbol target = actual.get((int) relocs.get(0).symbolIndex());
      int text = elf.section(".text").orElseThrow().index();
      assertEquals(text, target.sectionIndex(), "the table points into .text: " + target);
      assertEquals(1, relocs.get(0).type(), "R_X86_64_64");
    }
  }
}
