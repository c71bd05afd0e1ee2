package org.offlink.streamer.edit;

import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.file.Path;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.io.AtomicFiles;

/** Copies a section's raw payload out of an object (any ELF class, byte order or size). */
public final class SectionExtractor {
  private SectionExtractor() {}

  /** The payload of the first section called {@code name} in {@code in}. */
  public static byte[] extract(Path in, String name) throws IOException {
    try (ElfFile elf = ElfReader.read(in)) {
      return elf.readSectionData(find(elf, in, name));
    }
  }

  /** Streams the payload of the section called {@code name} to {@code out}, atomically. */
  public static void extract(Path in, String name, Path out) throws IOException {
    try (ElfFile elf = ElfReader.read(in)) {
      ElfSection s = find(elf, in, name);
      AtomicFiles.write(out, o -> elf.transferSectionData(s, Channels.newChannel(o)));
    }
  }

  private static ElfSection find(ElfFile elf, Path in, String name) throws ObjectEditException {
    return elf.section(name)
        .orElseThrow(
            () -> new ObjectEditException(in, "expected a section named " + name + ", found none"));
  }
}
