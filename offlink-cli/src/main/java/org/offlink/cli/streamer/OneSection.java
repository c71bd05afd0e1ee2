package org.offlink.cli.streamer;

import java.io.IOException;
import org.offlink.streamer.elf.ElfFile;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The {@code [-d] FILE SECTION} of the commands that read one section ({@code dump}, {@code
 * extract}).
 */
final class OneSection {
  @Option(
      names = {"-d", "--decompress"},
      description = "Undo the LTO section's zstd/zlib compression.")
  boolean decompress;

  @Parameters(index = "0", paramLabel = "FILE", description = "Object or lib.a@0xOFF.")
  String file;

  @Parameters(index = "1", paramLabel = "SECTION", description = "Section name.")
  String section;

  /** The section's payload, decompressed with {@code -d}. */
  byte[] read() throws IOException {
    try (ElfFile elf = Inputs.single(file).open()) {
      return SectionData.read(elf, section, decompress);
    }
  }
}
