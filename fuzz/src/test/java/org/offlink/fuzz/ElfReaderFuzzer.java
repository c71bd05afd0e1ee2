package org.offlink.fuzz;

import java.io.IOException;
import java.nio.file.Path;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.elf.SectionType;

/**
 * The ELF reader on arbitrary bytes: the header, the section table, every section's data, the
 * symbol tables and every relocation section. The only acceptable failure is {@link
 * MalformedObjectException}; anything else (an unchecked exception, an {@link OutOfMemoryError}
 * under -Xmx512m, a timeout) is a crash.
 */
public final class ElfReaderFuzzer {
  private ElfReaderFuzzer() {}

  /** Entry point for Jazzer's command line (scripts/fuzz.sh). */
  public static void fuzzerTestOneInput(byte[] data) throws IOException {
    Path file = FuzzFiles.write("input.o", data);
    try (ElfFile elf = ElfReader.read(file)) {
      for (ElfSection s : elf.sections()) {
        readQuietly(elf, s);
      }
      try {
        elf.symbols();
      } catch (MalformedObjectException e) {
        // rejected cleanly
      }
      try {
        elf.dynamicSymbols();
      } catch (MalformedObjectException e) {
        // rejected cleanly
      }
    } catch (MalformedObjectException e) {
      // rejected cleanly
    }
  }

  private static void readQuietly(ElfFile elf, ElfSection s) throws IOException {
    try {
      elf.readSectionData(s);
      if (s.type() == SectionType.RELA || s.type() == SectionType.REL) {
        elf.relocations(s);
      }
    } catch (MalformedObjectException e) {
      // rejected cleanly
    }
  }
}
