package org.offlink.streamer.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.offlink.streamer.MalformedObjectException;

/**
 * An opened ELF object: the header and section table are read eagerly, section contents, symbols
 * and relocations on request with bounds-checked positional reads. Immutable; holds the file's
 * channel until {@link #close()}. Safe to share between threads (positional reads only).
 */
public final class ElfFile implements AutoCloseable {
  private final ElfInput input;
  private final ElfHeader header;
  private final List<ElfSection> sections;
  private final Map<String, ElfSection> byName;

  ElfFile(ElfInput input, ElfHeader header, List<ElfSection> sections) {
    this.input = input;
    this.header = header;
    this.sections = sections;
    Map<String, ElfSection> names = new HashMap<>();
    for (ElfSection s : sections) {
      names.putIfAbsent(s.name(), s);
    }
    this.byName = names;
  }

  /** The file the object was read from. */
  public Path path() {
    return input.path();
  }

  /** Byte offset of the object inside {@link #path()} (non-zero for archive members). */
  public long baseOffset() {
    return input.base();
  }

  /** Length of the object in bytes. */
  public long length() {
    return input.length();
  }

  /** The ELF header. */
  public ElfHeader header() {
    return header;
  }

  /** All section headers in table order, including the NULL section 0 when present. */
  public List<ElfSection> sections() {
    return sections;
  }

  /** The first section called {@code name}. */
  public Optional<ElfSection> section(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  /** The sections whose names start with {@code prefix}, in table order. */
  public List<ElfSection> sectionsWithPrefix(String prefix) {
    return sections.stream().filter(s -> s.name().startsWith(prefix)).toList();
  }

  /** The section at {@code index}. */
  public ElfSection section(int index) throws MalformedObjectException {
    if (index < 0 || index >= sections.size()) {
      throw input.malformed(
          -1, String.format("expected a section index below %d, found %d", sections.size(), index));
    }
    return sections.get(index);
  }

  /** The contents of {@code section}; empty for NOBITS. Checked against the end of the object. */
  public byte[] readSectionData(ElfSection section) throws IOException {
    return readData(input, section, "section [" + section.index() + "] " + section.name());
  }

  /** Streams the contents of {@code section} to {@code out}, for sections too large for memory. */
  public void transferSectionData(ElfSection section, WritableByteChannel out) throws IOException {
    if (section.hasFileData()) {
      input.transferTo(
          section.offset(),
          section.size(),
          out,
          "section [" + section.index() + "] " + section.name());
    }
  }

  static byte[] readData(ElfInput in, ElfSection section, String what) throws IOException {
    if (!section.hasFileData()) {
      return new byte[0];
    }
    return in.read(section.offset(), section.size(), what);
  }

  /** The static symbol table ({@code SHT_SYMTAB}), or an empty list when there is none. */
  public List<ElfSymbol> symbols() throws IOException {
    Optional<ElfSection> symtab = firstOfType(SectionType.SYMTAB);
    return symtab.isPresent() ? symbols(symtab.get()) : List.of();
  }

  /** The dynamic symbol table ({@code SHT_DYNSYM}), or an empty list when there is none. */
  public List<ElfSymbol> dynamicSymbols() throws IOException {
    return firstOfType(SectionType.DYNSYM).isPresent()
        ? symbols(firstOfType(SectionType.DYNSYM).get())
        : List.of();
  }

  /**
   * The names of the symbol version definitions ({@code SHT_GNU_verdef}) of a shared object, in
   * file order; empty when it defines none.
   */
  public List<String> versionDefinitions() throws IOException {
    Optional<ElfSection> verdef = firstOfType(SectionType.GNU_VERDEF);
    return verdef.isPresent()
        ? new VersionDefinitionReader(this, input, verdef.get()).read()
        : List.of();
  }

  private Optional<ElfSection> firstOfType(SectionType type) {
    // A loop, not a stream: a cache hit reads an entry's symbols with this in a cold JVM.
    for (ElfSection s : sections) {
      if (s.type() == type) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  /** The symbols of one {@code SHT_SYMTAB} or {@code SHT_DYNSYM} section. */
  public List<ElfSymbol> symbols(ElfSection symtab) throws IOException {
    return new SymbolTableReader(this, input, symtab).read();
  }

  /** The relocations of one {@code SHT_REL} or {@code SHT_RELA} section. */
  public List<ElfRelocation> relocations(ElfSection section) throws IOException {
    boolean rela = section.type() == SectionType.RELA;
    if (!rela && section.type() != SectionType.REL) {
      throw input.malformed(
          ElfReader.sectionHeaderOffset(header, section.index()),
          String.format(
              "section [%d] %s: expected type REL or RELA, found %s",
              section.index(), section.name(), section.type()));
    }
    boolean is64 = header.elfClass() == ElfClass.ELF64;
    int entSize = (is64 ? 16 : 8) + (rela ? (is64 ? 8 : 4) : 0);
    checkEntrySize(section, entSize);
    ByteBuffer b = ByteBuffer.wrap(readSectionData(section)).order(header.byteOrder());
    Fields f = new Fields(header.elfClass(), b);
    List<ElfRelocation> out = new ArrayList<>((int) (section.size() / entSize));
    for (long i = 0; i < section.size() / entSize; i++) {
      long offset = f.addr();
      long info = f.addr();
      long addend = rela ? f.signedAddr() : 0;
      long sym = is64 ? info >>> 32 : info >>> 8;
      long type = is64 ? info & 0xffffffffL : info & 0xff;
      out.add(new ElfRelocation(offset, sym, type, addend));
    }
    return List.copyOf(out);
  }

  void checkEntrySize(ElfSection section, int entSize) throws MalformedObjectException {
    if (section.entsize() != entSize || section.size() % entSize != 0) {
      throw input.malformed(
          ElfReader.sectionHeaderOffset(header, section.index()),
          String.format(
              "section [%d] %s: expected entries of %d bytes and a size that is a multiple,"
                  + " found entsize %d and size %d",
              section.index(), section.name(), entSize, section.entsize(), section.size()));
    }
  }

  @Override
  public void close() throws IOException {
    input.close();
  }

  @Override
  public String toString() {
    return "ElfFile[" + path() + (baseOffset() != 0 ? "@" + baseOffset() : "") + "]";
  }
}
