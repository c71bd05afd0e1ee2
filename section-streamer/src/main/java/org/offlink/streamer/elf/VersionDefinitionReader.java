package org.offlink.streamer.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.offlink.streamer.MalformedObjectException;

/**
 * Reads the names of a shared object's symbol version definitions ({@code SHT_GNU_verdef}, {@code
 * .gnu.version_d}): each {@code Elf_Verdef} entry (version, flags, ndx, cnt: 16 bits; hash, aux,
 * next: 32 bits) points at its {@code Elf_Verdaux} entries (name, next: 32 bits); the first names
 * the version node. The layout is the same for ELF32 and ELF64.
 *
 * @param file the shared object
 * @param input where malformed data is reported
 * @param verdef the {@code SHT_GNU_verdef} section
 */
record VersionDefinitionReader(ElfFile file, ElfInput input, ElfSection verdef) {
  private static final int VERDEF_SIZE = 20;
  private static final int VERDAUX_SIZE = 8;

  List<String> read() throws IOException {
    ElfSection strSection = file.section(verdef.link());
    StringTable names = new StringTable(input, strSection, file.readSectionData(strSection));
    ByteBuffer b = ByteBuffer.wrap(file.readSectionData(verdef)).order(file.header().byteOrder());
    // sh_info is the entry count; the next-offset chain must not outlast it (no loops).
    long count = Integer.toUnsignedLong(verdef.info());
    List<String> out = new ArrayList<>();
    long entry = 0;
    for (long i = 0; i < count; i++) {
      if (entry + VERDEF_SIZE > b.limit()) {
        throw malformed(entry, "a version definition entry");
      }
      long aux = entry + Integer.toUnsignedLong(b.getInt((int) entry + 12));
      if (aux + VERDAUX_SIZE > b.limit()) {
        throw malformed(aux, "a version definition name entry");
      }
      out.add(
          names.get(Integer.toUnsignedLong(b.getInt((int) aux)), "version definition " + (i + 1)));
      long next = Integer.toUnsignedLong(b.getInt((int) entry + 16));
      if (next == 0) {
        break;
      }
      entry += next;
    }
    return out;
  }

  private MalformedObjectException malformed(long at, String what) {
    return input.malformed(
        verdef.offset() + at,
        "expected "
            + what
            + " at offset "
            + at
            + " of "
            + verdef.name()
            + " ("
            + verdef.size()
            + " bytes), found the section's end");
  }
}
