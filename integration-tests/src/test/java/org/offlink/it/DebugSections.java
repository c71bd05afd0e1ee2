package org.offlink.it;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;
import org.offlink.streamer.elf.ElfSection;

/**
 * What a linked program carries of DWARF, read with section-streamer's ELF reader: the names of its
 * {@code .debug_*} sections in section-table order (as {@code readelf -S} lists them) and the
 * number of units in {@code .debug_info} (as {@code readelf --debug-dump=info} counts "Compilation
 * Unit" headers).
 *
 * <pre>
 * unit header     size   field
 * unit_length     4      length of the rest of the unit; 0xffffffff: 64-bit DWARF, then
 *                 8      the real length
 * </pre>
 *
 * @param names the debug section names
 * @param infoUnits the number of units in {@code .debug_info} (0 when there is none)
 */
record DebugSections(List<String> names, int infoUnits) {
  /** Copies the list. */
  DebugSections {
    names = List.copyOf(names);
  }

  /** Reads {@code program}'s debug sections. */
  static DebugSections of(Path program) throws IOException {
    try (ElfFile elf = ElfReader.read(program)) {
      List<String> names =
          elf.sections().stream()
              .map(ElfSection::name)
              .filter(n -> n.startsWith(".debug"))
              .toList();
      Optional<ElfSection> info = elf.section(".debug_info");
      int units = info.isPresent() ? countUnits(elf.readSectionData(info.get()), program) : 0;
      return new DebugSections(names, units);
    }
  }

  private static int countUnits(byte[] info, Path program) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(info).order(ByteOrder.LITTLE_ENDIAN);
    int units = 0;
    long pos = 0;
    while (pos < info.length) {
      if (pos + 4 > info.length) {
        throw new IOException(program + ": .debug_info ends inside a unit header at " + pos);
      }
      long length = b.getInt((int) pos) & 0xffffffffL;
      long header = 4;
      if (length == 0xffffffffL) {
        length = b.getLong((int) pos + 4);
        header = 12;
      }
      pos += header + length;
      units++;
    }
    if (pos != info.length) {
      throw new IOException(program + ": the last .debug_info unit runs past the section's end");
    }
    return units;
  }
}
