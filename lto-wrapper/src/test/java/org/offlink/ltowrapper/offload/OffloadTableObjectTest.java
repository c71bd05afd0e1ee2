package org.offlink.ltowrapper.offload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;
import org.offlink.streamer.elf.ElfRelocation;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.elf.ElfSymbol;

/** The position-independent {@code __OFFLOAD_TABLE__} object, read back with our ELF reader. */
class OffloadTableObjectTest {
  @TempDir Path dir;

  @Test
  void tableIsInRelroWithFourAbsoluteRelocationsAgainstHiddenBrackets() throws Exception {
    assertArrayEquals(OffloadTableObject.bytes(), OffloadTableObject.bytes(), "deterministic");
    Path o = dir.resolve("t.o");
    Files.write(o, OffloadTableObject.bytes());
    try (ElfFile elf = ElfReader.read(o)) {
      ElfSection relro = elf.section(".data.rel.ro").orElseThrow();
      assertEquals(0x3, relro.flags(), "WA, not A: no text relocation in a PIE");
      assertEquals(32, relro.size());
      assertTrue(elf.section(".note.GNU-stack").isPresent());
      assertTrue(elf.section(".rodata").isEmpty());
      List<ElfSymbol> symbols = elf.symbols();
      ElfSymbol table =
          symbols.stream().filter(s -> s.name().equals("__OFFLOAD_TABLE__")).findFirst().get();
      assertEquals(relro.index(), table.sectionIndex());
      assertEquals(0x11, table.info(), "GLOBAL OBJECT");
      assertEquals(2, table.other() & 3, "hidden");
      assertEquals(32, table.size());
      ElfSection rela = elf.section(".rela.data.rel.ro").orElseThrow();
      List<ElfRelocation> relocs = elf.relocations(rela);
      assertEquals(4, relocs.size());
      for (int i = 0; i < 4; i++) {
        ElfRelocation r = relocs.get(i);
        ElfSymbol target = symbols.get((int) r.symbolIndex());
        assertEquals(8L * i, r.offset());
        assertEquals(1, r.type(), "R_X86_64_64");
        assertEquals(OffloadTableObject.BRACKETS.get(i), target.name());
        assertEquals(ElfSymbol.SHN_UNDEF, target.sectionIndex());
        assertEquals(2, target.other() & 3, "hidden reference");
      }
    }
  }
}
