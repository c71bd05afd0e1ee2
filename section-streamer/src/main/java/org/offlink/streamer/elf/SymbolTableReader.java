package org.offlink.streamer.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes one symbol table, resolving names and {@code SHN_XINDEX} section indices.
 *
 * @param file the object the table belongs to
 * @param input where malformed data is reported
 * @param symtab the {@code SHT_SYMTAB} or {@code SHT_DYNSYM} section
 */
record SymbolTableReader(ElfFile file, ElfInput input, ElfSection symtab) {
  List<ElfSymbol> read() throws IOException {
    ElfHeader h = file.header();
    if (symtab.type() != SectionType.SYMTAB && symtab.type() != SectionType.DYNSYM) {
      throw input.malformed(
          ElfReader.sectionHeaderOffset(h, symtab.index()),
          String.format(
              "section [%d] %s: expected type SYMTAB or DYNSYM, found %s",
              symtab.index(), symtab.name(), symtab.type()));
    }
    int entSize = h.elfClass().symbolSize();
    file.checkEntrySize(symtab, entSize);
    ElfSection strSection = file.section(symtab.link());
    StringTable names = new StringTable(input, strSection, file.readSectionData(strSection));
    ByteBuffer shndx = extendedIndices();
    ByteBuffer b = ByteBuffer.wrap(file.readSectionData(symtab)).order(h.byteOrder());
    Fields f = new Fields(h.elfClass(), b);
    int count = (int) (symtab.size() / entSize);
    List<ElfSymbol> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(decode(f, h.elfClass(), i, names, shndx));
    }
    return List.copyOf(out);
  }

  private ElfSymbol decode(Fields f, ElfClass c, int i, StringTable names, ByteBuffer shndx)
      throws IOException {
    long name = f.word();
    long value;
    long size;
    int info;
    int other;
    int sectionIndex;
    if (c == ElfClass.ELF64) {
      info = f.u8();
      other = f.u8();
      sectionIndex = f.half();
      value = f.addr();
      size = f.addr();
    } else {
      value = f.addr();
      size = f.addr();
      info = f.u8();
      other = f.u8();
      sectionIndex = f.half();
    }
    if (sectionIndex == ElfHeader.SHN_XINDEX) {
      sectionIndex = extendedIndex(shndx, i);
    }
    String symName = names.get(name, "name of symbol " + i + " in " + symtab.name());
    return new ElfSymbol(i, symName, value, size, info, other, sectionIndex);
  }

  private int extendedIndex(ByteBuffer shndx, int symbol) throws IOException {
    if (shndx == null || (long) symbol * 4 + 4 > shndx.limit()) {
      throw input.malformed(
          symtab.offset(),
          String.format(
              "symbol %d of %s: expected an SHT_SYMTAB_SHNDX entry for its SHN_XINDEX section,"
                  + " found none",
              symbol, symtab.name()));
    }
    long v = shndx.getInt(symbol * 4) & 0xffffffffL;
    if (v >= file.sections().size()) {
      throw input.malformed(
          symtab.offset(),
          String.format(
              "symbol %d of %s: expected an extended section index below %d, found %d",
              symbol, symtab.name(), file.sections().size(), v));
    }
    return (int) v;
  }

  private ByteBuffer extendedIndices() throws IOException {
    for (ElfSection s : file.sections()) {
      if (s.type() == SectionType.SYMTAB_SHNDX && s.link() == symtab.index()) {
        return ByteBuffer.wrap(file.readSectionData(s)).order(file.header().byteOrder());
      }
    }
    return null;
  }
}
