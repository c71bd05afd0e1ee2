package org.offlink.streamer.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.offlink.streamer.MalformedObjectException;

/**
 * Opens ELF objects (relocatable, executable, shared; ELF32/ELF64; either byte order) as an {@link
 * ElfFile}.
 *
 * <p><b>Why this does not use jelf for the reading.</b> jelf 0.9.0 maps the whole file with {@code
 * mmap} into one {@code MappedByteBuffer} (fails above 2 GiB), keeps the section count in a {@code
 * short} (so extended numbering, {@code e_shnum == 0} with the count in section 0's {@code
 * sh_size}, breaks above 32,767 sections), has no notion of an object embedded at an offset in an
 * archive, and reports bad input as unchecked {@code ElfException}s without file offsets. The parts
 * we need (the header, the section header table, string tables, symbols, relocations) are small
 * fixed-layout tables, so they are read here with {@link FileChannel} positional reads, the same
 * way for every file size, with one bounds check per offset. A second code path through jelf for
 * "small" files would double the surface for bugs without adding anything; jelf stays a dependency
 * and serves as an independent oracle in the tests.
 *
 * <p>Problems in the input raise {@link MalformedObjectException} with the file, the absolute byte
 * offset and an "expected X, found Y" detail.
 */
public final class ElfReader {
  private static final int EI_NIDENT = 16;

  /**
   * The most sections an object may have: 2^20. Real objects stay far below (the largest GCC LTO
   * objects have some 10^5); a sparse file can declare 33 million headers in 2 GB of holes, whose
   * model would not fit in the 512 MB heap offlink's tools run in.
   */
  public static final long MAX_SECTIONS = 1L << 20;

  private ElfReader() {}

  /** Opens a whole file as an ELF object. The caller closes the result. */
  public static ElfFile read(Path file) throws IOException {
    FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
    try {
      return read(file, channel, 0, channel.size());
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /**
   * Reads the ELF object in {@code bytes} (not copied; the caller must not change them), named
   * {@code name} in messages: a cache entry or a downloaded blob, checked before it is written
   * anywhere. Nothing to close, but closing is harmless.
   */
  public static ElfFile read(Path name, byte[] bytes) throws IOException {
    return read(new ElfInput(name, bytes));
  }

  /**
   * Opens the ELF object stored at {@code [offset, offset + length)} of {@code file}, e.g. an
   * archive member. Offsets in the result are relative to {@code offset}.
   */
  public static ElfFile read(Path file, long offset, long length) throws IOException {
    FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
    try {
      long size = channel.size();
      if (offset < 0 || length < 0 || offset > size || length > size - offset) {
        throw new MalformedObjectException(
            file,
            offset,
            String.format(
                "expected an object of %d bytes at offset %d inside the file of %d bytes, found"
                    + " it past the end",
                length, offset, size));
      }
      return read(file, channel, offset, length);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  private static ElfFile read(Path file, FileChannel channel, long offset, long length)
      throws IOException {
    return read(new ElfInput(file, channel, offset, length));
  }

  private static ElfFile read(ElfInput input) throws IOException {
    StoredHeader raw = readHeader(input);
    List<SectionHeader> rawSections = readSectionTable(input, raw.header());
    ElfHeader header = resolveHeader(input, raw, rawSections);
    List<ElfSection> sections = nameSections(input, header, rawSections);
    return new ElfFile(input, header, sections);
  }

  /**
   * The header as stored: its section count is {@code e_shnum} (0 under extended numbering) and its
   * name-table index, until resolved, is kept apart ({@code rawShstrndx}, maybe SHN_XINDEX).
   */
  private record StoredHeader(ElfHeader header, int rawShstrndx) {}

  private static StoredHeader readHeader(ElfInput in) throws IOException {
    if (in.length() < EI_NIDENT) {
      throw in.malformed(
          0,
          String.format(
              "expected an ELF header of at least %d bytes, found a file of %d bytes",
              EI_NIDENT, in.length()));
    }
    byte[] ident = in.read(0, EI_NIDENT, "ELF identification");
    if (ident[0] != 0x7f || ident[1] != 'E' || ident[2] != 'L' || ident[3] != 'F') {
      // The bytes found are not echoed: the file may be one the user never meant to show (a thin
      // archive member naming /etc/shadow-like files), and four bytes say little anyway.
      throw in.malformed(0, "expected ELF magic 7f 45 4c 46, found a file that is not ELF");
    }
    ElfClass elfClass = ElfClass.fromRaw(ident[4]);
    if (elfClass == null) {
      throw in.malformed(4, "expected ELF class 1 (ELF32) or 2 (ELF64), found " + ident[4]);
    }
    ElfData data = ElfData.fromRaw(ident[5]);
    if (data == null) {
      throw in.malformed(5, "expected ELF data encoding 1 (LSB) or 2 (MSB), found " + ident[5]);
    }
    if (in.length() < elfClass.headerSize()) {
      throw in.malformed(
          0,
          String.format(
              "expected an %s header of %d bytes, found a file of %d bytes",
              elfClass, elfClass.headerSize(), in.length()));
    }
    ByteBuffer b = in.read(0, elfClass.headerSize(), data.byteOrder(), "ELF header");
    Fields f = new Fields(elfClass, b);
    f.position(EI_NIDENT);
    ElfHeader header =
        new ElfHeader(
            elfClass,
            data,
            ident[7] & 0xff,
            ident[8] & 0xff,
            f.half(),
            f.half(),
            f.word(),
            f.addr(),
            f.addr(),
            f.addr(),
            f.word(),
            f.half(),
            f.half(),
            f.half(),
            f.half(),
            f.half(),
            0);
    return new StoredHeader(header, f.half());
  }

  private static List<SectionHeader> readSectionTable(ElfInput in, ElfHeader h) throws IOException {
    if (h.shoff() == 0) {
      return List.of();
    }
    int entSize = h.elfClass().sectionHeaderSize();
    long shoffField = h.elfClass() == ElfClass.ELF64 ? 40 : 32;
    if (h.shoff() < 0) {
      throw in.malformed(shoffField, "expected e_shoff below 2^63, found " + h.shoff());
    }
    if (h.shentsize() != entSize) {
      throw in.malformed(
          shoffField + 18,
          String.format(
              "expected e_shentsize %d for %s, found %d", entSize, h.elfClass(), h.shentsize()));
    }
    long count = h.shnum();
    if (count == 0) {
      // Extended numbering: the real count is section 0's sh_size.
      SectionHeader zero = decodeSection(in, h, in.read(h.shoff(), entSize, "section header 0"));
      count = zero.size();
    }
    if (count < 0 || count > in.length() / entSize) {
      throw in.malformed(
          h.shoff(),
          String.format(
              "section header table: expected %d headers of %d bytes inside the object of %d"
                  + " bytes, found them past its end",
              count, entSize, in.length()));
    }
    if (count > MAX_SECTIONS) {
      throw in.malformed(
          h.shoff(),
          String.format(
              "section header table: expected at most %d sections (offlink's limit), found %d",
              MAX_SECTIONS, count));
    }
    byte[] table = in.read(h.shoff(), count * entSize, "section header table");
    List<SectionHeader> out = new ArrayList<>((int) count);
    for (int i = 0; i < count; i++) {
      byte[] one = new byte[entSize];
      System.arraycopy(table, i * entSize, one, 0, entSize);
      out.add(decodeSection(in, h, one));
    }
    return out;
  }

  private static SectionHeader decodeSection(ElfInput in, ElfHeader h, byte[] bytes) {
    Fields f = new Fields(h.elfClass(), ByteBuffer.wrap(bytes).order(h.data().byteOrder()));
    return new SectionHeader(
        f.word(), f.word(), f.addr(), f.addr(), f.addr(), f.addr(), f.word(), f.word(), f.addr(),
        f.addr());
  }

  private static ElfHeader resolveHeader(
      ElfInput in, StoredHeader stored, List<SectionHeader> sections)
      throws MalformedObjectException {
    ElfHeader h = stored.header();
    long strndx = stored.rawShstrndx();
    long strndxField = h.elfClass() == ElfClass.ELF64 ? 62 : 50;
    if (strndx == ElfHeader.SHN_XINDEX) {
      if (sections.isEmpty()) {
        throw in.malformed(
            strndxField, "expected a section 0 to hold the SHN_XINDEX e_shstrndx, found none");
      }
      strndx = sections.get(0).link();
    }
    if (strndx != 0 && strndx >= sections.size()) {
      throw in.malformed(
          strndxField,
          String.format(
              "expected e_shstrndx below the section count %d, found %d", sections.size(), strndx));
    }
    return h.withSections(sections.size(), (int) strndx);
  }

  private static List<ElfSection> nameSections(ElfInput in, ElfHeader h, List<SectionHeader> raw)
      throws IOException {
    List<ElfSection> unnamed = new ArrayList<>(raw.size());
    for (int i = 0; i < raw.size(); i++) {
      unnamed.add(toSection(in, h, i, raw.get(i), ""));
    }
    if (h.shstrndx() == 0) {
      return List.copyOf(unnamed);
    }
    ElfSection strSection = unnamed.get(h.shstrndx());
    if (strSection.rawType() != SectionType.STRTAB.raw()) {
      throw in.malformed(
          sectionHeaderOffset(h, h.shstrndx()),
          String.format(
              "expected section-name table [%d] of type STRTAB (3), found type %d",
              h.shstrndx(), strSection.rawType()));
    }
    StringTable names =
        new StringTable(in, strSection, ElfFile.readData(in, strSection, "section-name table"));
    List<ElfSection> out = new ArrayList<>(raw.size());
    for (ElfSection s : unnamed) {
      String name = names.get(raw.get(s.index()).name(), "name of section " + s.index());
      out.add(toSection(in, h, s.index(), raw.get(s.index()), name));
    }
    return List.copyOf(out);
  }

  private static ElfSection toSection(
      ElfInput in, ElfHeader h, int index, SectionHeader r, String name)
      throws MalformedObjectException {
    long at = sectionHeaderOffset(h, index);
    if (r.offset() < 0 || r.size() < 0 || r.alignment() < 0 || r.entrySize() < 0) {
      throw in.malformed(
          at, "section " + index + ": expected offset, size, alignment below 2^63, found more");
    }
    return new ElfSection(
        index,
        name,
        (int) r.type(),
        r.flags(),
        r.addr(),
        r.offset(),
        r.size(),
        (int) r.link(),
        (int) r.info(),
        r.alignment(),
        r.entrySize());
  }

  static long sectionHeaderOffset(ElfHeader h, int index) {
    return h.shoff() + (long) index * h.elfClass().sectionHeaderSize();
  }
}
