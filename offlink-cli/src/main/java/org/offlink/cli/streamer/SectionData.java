package org.offlink.cli.streamer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.offlink.runtime.FileKinds;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.lto.LtoHeader;
import org.offlink.streamer.lto.LtoHeaderReader;
import org.offlink.streamer.lto.LtoPayload;
import org.offlink.streamer.lto.LtoPrefix;
import org.offlink.streamer.lto.LtoSectionKind;
import org.offlink.streamer.lto.LtoSectionName;

/** Reads one named section's bytes, raw or with its LTO compression undone. */
final class SectionData {
  /** The largest data file {@code add --section} reads: 64 MiB (it is held in memory twice). */
  static final long MAX_DATA_FILE = 64L << 20;

  private SectionData() {}

  /**
   * The contents of {@code file} for a new section: a regular file of at most {@value
   * #MAX_DATA_FILE} bytes. A device or FIFO ({@code /dev/zero}) has no size to trust, so it is
   * refused rather than read until the heap runs out.
   */
  static byte[] readDataFile(Path file) throws IOException {
    FileKinds.requireRegularFile(file);
    long size = Files.size(file);
    if (size > MAX_DATA_FILE) {
      throw new FileSystemException(
          file.toString(),
          null,
          "expected a section data file of at most " + MAX_DATA_FILE + " bytes, found " + size);
    }
    try (InputStream in = Files.newInputStream(file)) {
      return in.readNBytes((int) size);
    }
  }

  /** The section called {@code name}, or an error naming the file. */
  static ElfSection require(ElfFile elf, String name) throws MalformedObjectException {
    return elf.section(name)
        .orElseThrow(
            () ->
                new MalformedObjectException(
                    elf.path(), -1, "expected a section named " + name + ", found none"));
  }

  /** The bytes of section {@code name}, decompressed when asked and the kind is compressed. */
  static byte[] read(ElfFile elf, String name, boolean decompress) throws IOException {
    ElfSection s = require(elf, name);
    byte[] data = elf.readSectionData(s);
    if (!decompress) {
      return data;
    }
    LtoSectionName parsed =
        LtoSectionName.parse(name)
            .orElseThrow(
                () ->
                    new MalformedObjectException(
                        elf.path(), -1, name + " is not an LTO section: nothing to decompress"));
    if (!parsed.kind().isCompressed()) {
      return data;
    }
    LtoHeader header =
        header(elf, parsed.prefix())
            .orElseThrow(
                () ->
                    new MalformedObjectException(
                        elf.path(),
                        -1,
                        "expected a "
                            + parsed.prefix().text()
                            + ".lto. header section to tell the compression, found none"));
    return LtoPayload.decompress(
        elf.path(), elf.baseOffset() + s.offset(), data, header.compression());
  }

  /** The {@code .lto.} header of the stream with {@code prefix}, if the object has one. */
  static Optional<LtoHeader> header(ElfFile elf, LtoPrefix prefix) throws IOException {
    for (ElfSection s : elf.sectionsWithPrefix(prefix.text())) {
      Optional<LtoSectionName> n = LtoSectionName.parse(s.name());
      if (n.isPresent() && n.get().kind() == LtoSectionKind.LTO) {
        return Optional.of(LtoHeaderReader.read(elf.path(), s.offset(), elf.readSectionData(s)));
      }
    }
    return Optional.empty();
  }
}
