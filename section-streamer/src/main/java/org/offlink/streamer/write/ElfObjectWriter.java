package org.offlink.streamer.write;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.offlink.streamer.elf.ElfClass;
import org.offlink.streamer.elf.ElfData;
import org.offlink.streamer.elf.ElfHeader;
import org.offlink.streamer.elf.SectionHeader;
import org.offlink.streamer.elf.SectionType;
import org.offlink.streamer.elf.SymbolBinding;
import org.offlink.streamer.elf.SymbolType;
import org.offlink.streamer.write.ElfObjectBuilder.RelaDef;
import org.offlink.streamer.write.ElfObjectBuilder.SectionDef;
import org.offlink.streamer.write.ElfObjectBuilder.SymbolDef;

/**
 * Serialises what an {@link ElfObjectBuilder} collected.
 *
 * <p>File layout: ELF header; each declared section's contents in declaration order, aligned to its
 * {@code sh_addralign}; the {@code .rela<name>} tables; {@code .symtab}; {@code .strtab}; {@code
 * .shstrtab}; the section header table (8-aligned). Section header order: null, each declared
 * section immediately followed by its {@code .rela} section (as GCC's objects), then {@code
 * .symtab}, {@code .strtab}, {@code .shstrtab}.
 */
final class ElfObjectWriter {
  /** {@code e_type} of a relocatable object. */
  private static final int ET_REL = 1;

  /** {@code e_machine} of x86-64. */
  private static final int EM_X86_64 = 62;

  private final List<SectionDef> sections;
  private final List<SymbolDef> symbols;
  private final List<RelaDef> relocations;

  ElfObjectWriter(List<SectionDef> sections, List<SymbolDef> symbols, List<RelaDef> relocations) {
    this.sections = sections;
    this.symbols = symbols;
    this.relocations = relocations;
  }

  /** A finished section: header plus the first {@code length} bytes to place at its offset. */
  private record Placed(SectionHeader header, byte[] bytes, int length) {
    Placed(SectionHeader header, byte[] bytes) {
      this(header, bytes, bytes.length);
    }
  }

  byte[] write() {
    // Header indices: declared sections (each followed by its .rela) then the three tables.
    int[] sectionIndex = new int[sections.size()];
    int[] relaIndex = new int[sections.size()];
    boolean[] relocated = new boolean[sections.size()];
    for (RelaDef r : relocations) {
      relocated[r.sectionOrdinal()] = true;
    }
    int next = 1;
    for (int i = 0; i < sections.size(); i++) {
      sectionIndex[i] = next++;
      relaIndex[i] = relocated[i] ? next++ : 0;
    }
    int symtabIndex = next++;
    int strtabIndex = next++;
    int shstrtabIndex = next++;
    int count = next;

    // Symbols: null, FILE symbols, other locals, then globals/weaks; declaration order within.
    List<Integer> order = symbolOrder();
    int[] symbolIndex = new int[symbols.size()];
    for (int i = 0; i < order.size(); i++) {
      symbolIndex[order.get(i)] = i + 1;
    }
    int firstGlobal = 1;
    for (int o : order) {
      if (isLocal(symbols.get(o))) {
        firstGlobal++;
      }
    }

    StringTableBuilder strtab = new StringTableBuilder();
    ByteBuffer symtab = ByteBuffer.allocate((order.size() + 1) * Elf64Symbol.SIZE);
    Elf64Symbol.nullSymbol().writeTo(symtab);
    for (int o : order) {
      toRecord(symbols.get(o), strtab, sectionIndex).writeTo(symtab);
    }

    StringTableBuilder shstrtab = new StringTableBuilder();
    Placed[] placed = new Placed[count];
    long offset = ElfClass.ELF64.headerSize();
    for (int i = 0; i < sections.size(); i++) {
      SectionDef s = sections.get(i);
      offset = align(offset, s.alignment());
      long name = shstrtab.add(s.name());
      placed[sectionIndex[i]] =
          new Placed(
              new SectionHeader(
                  name,
                  s.type().raw(),
                  s.flags(),
                  0,
                  offset,
                  s.size(),
                  0,
                  0,
                  s.alignment(),
                  s.entrySize()),
              s.contents(),
              s.fileLength());
      offset += s.fileLength();
    }
    for (int i = 0; i < sections.size(); i++) {
      if (relaIndex[i] == 0) {
        continue;
      }
      byte[] table = relaTable(i, symbolIndex);
      offset = align(offset, 8);
      long name = shstrtab.add(".rela" + sections.get(i).name());
      placed[relaIndex[i]] =
          new Placed(
              new SectionHeader(
                  name,
                  SectionType.RELA.raw(),
                  SectionFlag.INFO_LINK.bit(),
                  0,
                  offset,
                  table.length,
                  symtabIndex,
                  sectionIndex[i],
                  8,
                  Elf64Rela.SIZE),
              table);
      offset += table.length;
    }
    offset = align(offset, 8);
    placed[symtabIndex] =
        new Placed(
            new SectionHeader(
                shstrtab.add(".symtab"),
                SectionType.SYMTAB.raw(),
                0,
                0,
                offset,
                symtab.capacity(),
                strtabIndex,
                firstGlobal,
                8,
                Elf64Symbol.SIZE),
            symtab.array());
    offset += symtab.capacity();
    byte[] strBytes = strtab.toByteArray();
    placed[strtabIndex] = stringTable(shstrtab.add(".strtab"), offset, strBytes);
    offset += strBytes.length;
    long shstrName = shstrtab.add(".shstrtab");
    byte[] shstrBytes = shstrtab.toByteArray();
    placed[shstrtabIndex] = stringTable(shstrName, offset, shstrBytes);
    offset += shstrBytes.length;

    long shoff = align(offset, 8);
    ElfClass c = ElfClass.ELF64;
    ElfHeader header =
        new ElfHeader(
            c,
            ElfData.LSB,
            0,
            0,
            ET_REL,
            EM_X86_64,
            1,
            0,
            0,
            shoff,
            0,
            c.headerSize(),
            0,
            0,
            c.sectionHeaderSize(),
            count,
            shstrtabIndex);
    placed[0] = new Placed(SectionHeader.zero(header), new byte[0]);
    ByteBuffer out =
        ByteBuffer.allocate(Math.toIntExact(shoff + (long) count * c.sectionHeaderSize()));
    ElfHeaders.write(out, header);
    for (Placed p : placed) {
      if (p.bytes() != null) { // null: a reserved section, left zero
        out.put(Math.toIntExact(p.header().offset()), p.bytes(), 0, p.length());
      }
    }
    out.position(Math.toIntExact(shoff));
    for (Placed p : placed) {
      ElfHeaders.writeSection(out, c, p.header());
    }
    return out.array();
  }

  private static Placed stringTable(long name, long offset, byte[] bytes) {
    return new Placed(
        new SectionHeader(name, SectionType.STRTAB.raw(), 0, 0, offset, bytes.length, 0, 0, 1, 0),
        bytes);
  }

  private byte[] relaTable(int section, int[] symbolIndex) {
    List<RelaDef> mine = new ArrayList<>();
    for (RelaDef r : relocations) {
      if (r.sectionOrdinal() == section) {
        mine.add(r);
      }
    }
    ByteBuffer b = ByteBuffer.allocate(mine.size() * Elf64Rela.SIZE);
    for (RelaDef r : mine) {
      new Elf64Rela(r.offset(), symbolIndex[r.symbolOrdinal()], r.type(), r.addend()).writeTo(b);
    }
    return b.array();
  }

  private List<Integer> symbolOrder() {
    List<Integer> order = new ArrayList<>();
    for (int pass = 0; pass < 3; pass++) {
      for (int i = 0; i < symbols.size(); i++) {
        SymbolDef s = symbols.get(i);
        boolean file = s.type() == SymbolType.FILE;
        int rank = file ? 0 : isLocal(s) ? 1 : 2;
        if (rank == pass) {
          order.add(i);
        }
      }
    }
    return order;
  }

  private static boolean isLocal(SymbolDef s) {
    return s.binding() == SymbolBinding.LOCAL;
  }

  private static Elf64Symbol toRecord(SymbolDef s, StringTableBuilder strtab, int[] sectionIndex) {
    int shndx =
        switch (s.sectionOrdinal()) {
          case SymbolDef.UNDEFINED -> Elf64Symbol.SHN_UNDEF;
          case SymbolDef.ABSOLUTE -> Elf64Symbol.SHN_ABS;
          default -> sectionIndex[s.sectionOrdinal()];
        };
    long name = s.name().isEmpty() ? 0 : strtab.add(s.name());
    return new Elf64Symbol(name, s.binding(), s.type(), s.visibility(), shndx, s.value(), s.size());
  }

  private static long align(long value, long alignment) {
    return alignment <= 1 ? value : (value + alignment - 1) & -alignment;
  }
}
