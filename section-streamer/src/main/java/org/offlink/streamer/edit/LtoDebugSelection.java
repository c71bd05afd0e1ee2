package org.offlink.streamer.edit;

import static org.offlink.streamer.elf.ElfSymbol.SHN_COMMON;
import static org.offlink.streamer.elf.ElfSymbol.SHN_UNDEF;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.offlink.streamer.elf.ElfClass;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfHeader;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.elf.SectionFlags;
import org.offlink.streamer.elf.SectionType;

/**
 * Which sections of an LTO object {@link LtoDebugSectionCopier} keeps, and their rewritten contents
 * (symbol table, groups) and header links in the renumbered copy.
 *
 * <pre>
 * symbol entry     ELF64 offset/size     ELF32 offset/size
 * st_name           0 / 4                 0 / 4
 * st_info           4 / 1                12 / 1
 * st_other          5 / 1                13 / 1
 * st_shndx          6 / 2                14 / 2
 * st_value          8 / 8                 4 / 4
 * st_size          16 / 8                 8 / 4   (only 4 bytes are cleared, as libiberty does)
 * </pre>
 */
final class LtoDebugSelection {
  private static final int STB_LOCAL = 0;
  private static final int STB_GLOBAL = 1;
  private static final int STB_WEAK = 2;
  private static final int STV_HIDDEN = 2;

  private final ElfFile elf;
  private final List<ElfSection> sections;
  private final ElfClass elfClass;
  private final ByteOrder order;
  private final boolean[] keep;
  private final String[] names;
  private final int[] shndxTableOf;
  private int firstKept;
  private int[] map;

  LtoDebugSelection(ElfFile elf, boolean rename) {
    this.elf = elf;
    this.sections = elf.sections();
    this.elfClass = elf.header().elfClass();
    this.order = elf.header().byteOrder();
    int n = sections.size();
    keep = new boolean[n];
    names = new String[n];
    shndxTableOf = new int[n];
    for (int i = 1; i < n; i++) {
      ElfSection s = sections.get(i);
      String name = LtoDebugSectionCopier.keptName(s.name(), rename);
      keep[i] = name != null;
      names[i] = name != null ? name : s.name();
      if (firstKept == 0 && keep[i]) {
        firstKept = i;
      }
      if (s.rawType() == SectionType.SYMTAB_SHNDX.raw() && s.link() > 0 && s.link() < n) {
        // Extended indices are read from the input but never written: the copy is small.
        shndxTableOf[s.link()] = i;
        keep[i] = false;
      }
    }
  }

  /** Marks dependencies, renumbers and rewrites the kept sections. */
  LtoDebugSectionCopier.Result copy() throws IOException {
    while (markDependencies()) {
      // repeat until no section is added
    }
    renumber();
    List<LtoDebugSectionCopier.OutSection> out = new ArrayList<>();
    for (int i = 1; i < sections.size(); i++) {
      if (keep[i]) {
        out.add(copySection(sections.get(i)));
      }
    }
    return new LtoDebugSectionCopier.Result(elfClass, order, out);
  }

  private boolean markDependencies() throws IOException {
    boolean changed = false;
    for (int i = 1; i < sections.size(); i++) {
      ElfSection s = sections.get(i);
      boolean needed =
          switch (SectionType.fromRaw(s.rawType())) {
            case GROUP -> groupHasKeptMember(s);
            case REL, RELA -> keep[checked(s, s.info())];
            default -> false;
          };
      if (needed) {
        changed |= !keep[checked(s, s.link())] || !keep[i];
        keep[s.link()] = true;
        keep[i] = true;
      }
      if (s.rawType() == SectionType.SYMTAB.raw() && keep[i]) {
        changed |= !keep[checked(s, s.link())];
        keep[s.link()] = true;
      }
    }
    return changed;
  }

  private boolean groupHasKeptMember(ElfSection group) throws IOException {
    ByteBuffer b = data(group);
    long step = group.entsize();
    if (step < 4) {
      throw malformed(group, "expected group entries of 4 bytes, found entsize " + step);
    }
    for (long p = step; p + 4 <= b.limit(); p += step) {
      if (keep[checked(group, b.getInt((int) p))]) {
        return true;
      }
    }
    return false;
  }

  private void renumber() throws ObjectEditException {
    map = new int[sections.size()];
    int next = 1;
    for (int i = 1; i < sections.size(); i++) {
      map[i] = keep[i] ? next++ : 0;
    }
    if (next - 1 >= ElfHeader.SHN_LORESERVE) {
      throw new ObjectEditException(
          elf.path(),
          "early debug copy: expected fewer than 65280 copied sections, found " + (next - 1));
    }
  }

  private LtoDebugSectionCopier.OutSection copySection(ElfSection s) throws IOException {
    byte[] data = elf.readSectionData(s);
    if (s.rawType() == SectionType.SYMTAB.raw()) {
      rewriteSymbols(s, data);
    } else if (s.rawType() == SectionType.GROUP.raw()) {
      data = remapGroup(s, data);
    }
    int info = s.info();
    if ((s.flags() & SectionFlags.INFO_LINK) != 0
        || s.rawType() == SectionType.REL.raw()
        || s.rawType() == SectionType.RELA.raw()) {
      info = map[checked(s, info)];
    }
    String name = names[s.index()];
    return new LtoDebugSectionCopier.OutSection(
        name,
        s.rawType(),
        clearedFlags(name, s.flags()),
        s.addr(),
        map[checked(s, s.link())],
        info,
        s.addralign(),
        s.entsize(),
        data);
  }

  /** Kept sections lose SHF_EXCLUDE; {@code .note.GNU-stack} also SHF_EXECINSTR. */
  private static long clearedFlags(String name, long flags) {
    long f = flags;
    if (name.equals(".note.GNU-stack")) {
      f &= ~SectionFlags.EXECINSTR; // the copy holds no code, so it needs no trampolines
    }
    return f & ~SectionFlags.EXCLUDE;
  }

  private byte[] remapGroup(ElfSection s, byte[] data) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(data).order(order);
    int dst = 4;
    for (int p = 4; p + 4 <= data.length; p += 4) {
      int member = checked(s, b.getInt(p));
      if (keep[member]) {
        b.putInt(dst, map[member]);
        dst += 4;
      }
    }
    return Arrays.copyOf(data, dst);
  }

  private void rewriteSymbols(ElfSection symtab, byte[] data) throws IOException {
    int size = elfClass.symbolSize();
    if (symtab.entsize() != size) {
      throw malformed(
          symtab, "expected symbols of " + size + " bytes, found entsize " + symtab.entsize());
    }
    SymbolView v = new SymbolView(ByteBuffer.wrap(data).order(order), extendedIndices(symtab));
    int count = data.length / size;
    int prevailingName = 0;
    for (int k = 0; k < count; k++) {
      v.at(k * size, k);
      if (v.shndx() != SHN_COMMON
          && !inDroppedSection(v.shndx())
          && v.bind() == STB_WEAK
          && v.other() == STV_HIDDEN) {
        prevailingName = v.name();
        break;
      }
    }
    for (int k = 0; k < count; k++) {
      v.at(k * size, k);
      rewriteSymbol(symtab, v, prevailingName);
    }
  }

  private void rewriteSymbol(ElfSection symtab, SymbolView v, int prevailingName)
      throws IOException {
    int shndx = v.shndx();
    boolean discard =
        shndx == SHN_COMMON // also drops __gnu_lto_slim, which would re-run the LTO plugin
            || inDroppedSection(shndx) // ld/20513: fat objects would define them twice
            || (shndx == SHN_UNDEF && v.bind() == STB_GLOBAL); // would fail the final link
    if (discard) {
      if (v.bind() == STB_LOCAL) {
        v.set(0, STB_LOCAL, 0, map[firstKept]);
      } else {
        v.set(prevailingName, STB_WEAK, STV_HIDDEN, SHN_UNDEF);
      }
    } else if (v.rawShndx() < ElfHeader.SHN_LORESERVE || v.rawShndx() == ElfHeader.SHN_XINDEX) {
      v.setShndx(map[checked(symtab, shndx)]);
    }
  }

  private boolean inDroppedSection(int shndx) {
    return shndx != SHN_UNDEF && shndx < keep.length && !keep[shndx];
  }

  private ByteBuffer extendedIndices(ElfSection symtab) throws IOException {
    int table = shndxTableOf[symtab.index()];
    return table == 0 ? null : data(sections.get(table));
  }

  private ByteBuffer data(ElfSection s) throws IOException {
    return ByteBuffer.wrap(elf.readSectionData(s)).order(order);
  }

  private int checked(ElfSection s, long index) throws ObjectEditException {
    if (index < 0 || index >= sections.size()) {
      throw malformed(
          s, String.format("expected a section index below %d, found %d", sections.size(), index));
    }
    return (int) index;
  }

  private ObjectEditException malformed(ElfSection s, String detail) {
    return new ObjectEditException(
        elf.path(), "section [" + s.index() + "] " + s.name() + ": " + detail);
  }

  /** Reads and edits one symbol entry in place, in either ELF class. */
  private final class SymbolView {
    private final ByteBuffer b;
    private final ByteBuffer xindex;
    private final boolean is64 = elfClass == ElfClass.ELF64;
    private int base;
    private int entry;

    SymbolView(ByteBuffer b, ByteBuffer xindex) {
      this.b = b;
      this.xindex = xindex;
    }

    void at(int base, int entry) {
      this.base = base;
      this.entry = entry;
    }

    int name() {
      return b.getInt(base);
    }

    int info() {
      return b.get(base + (is64 ? 4 : 12)) & 0xff;
    }

    int bind() {
      return info() >>> 4;
    }

    int other() {
      return b.get(base + (is64 ? 5 : 13)) & 0xff;
    }

    int rawShndx() {
      return b.getShort(base + (is64 ? 6 : 14)) & 0xffff;
    }

    /** The real section index, through the extended index table for SHN_XINDEX. */
    int shndx() {
      int raw = rawShndx();
      if (raw != ElfHeader.SHN_XINDEX || xindex == null || (entry + 1) * 4 > xindex.limit()) {
        return raw;
      }
      return xindex.getInt(entry * 4);
    }

    void setShndx(int shndx) {
      b.putShort(base + (is64 ? 6 : 14), (short) shndx);
    }

    /** A discarded symbol: no type, no value, and the given name, binding and visibility. */
    void set(int name, int bind, int other, int shndx) {
      b.putInt(base, name);
      setShndx(shndx);
      b.put(base + (is64 ? 5 : 13), (byte) other);
      b.put(base + (is64 ? 4 : 12), (byte) (bind << 4));
      if (is64) {
        b.putLong(base + 8, 0);
      } else {
        b.putInt(base + 4, 0);
      }
      b.putInt(base + (is64 ? 16 : 8), 0);
    }
  }
}
