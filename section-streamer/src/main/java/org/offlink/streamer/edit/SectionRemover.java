package org.offlink.streamer.edit;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.offlink.streamer.elf.ElfHeader;
import org.offlink.streamer.elf.SectionFlags;
import org.offlink.streamer.elf.SectionType;

/**
 * Removes sections from an {@link EditableObject} and repairs everything that holds a section or
 * symbol index: {@code sh_link}/{@code sh_info}, group member lists, {@code st_shndx} (also through
 * {@code SHT_SYMTAB_SHNDX}), the symbol table's first-global index and every relocation's symbol.
 *
 * <p>Removal cascades to relocation sections whose target goes, {@code SHF_LINK_ORDER} sections
 * whose link goes and groups left empty. Symbols defined in a removed section are dropped (section
 * symbols and, as with GCC's {@code .offload_func_table}, locals that label the table); a
 * relocation in a kept section that still uses such a symbol is an error, as is removing a symbol
 * or string table.
 */
final class SectionRemover {
  private static final int SYM = 24;
  private final EditableObject obj;
  private final List<WorkSection> secs;
  private boolean[] removed;

  SectionRemover(EditableObject obj) {
    this.obj = obj;
    this.secs = obj.sections;
  }

  void remove(Predicate<String> names) throws ObjectEditException {
    int n = secs.size();
    removed = new boolean[n];
    for (int i = 1; i < n; i++) {
      WorkSection s = secs.get(i);
      if (names.test(s.name)) {
        if (s.is(SectionType.SYMTAB)
            || s.is(SectionType.STRTAB)
            || s.is(SectionType.SYMTAB_SHNDX)) {
          throw fail(
              "expected only content sections to match the removal pattern, found " + s.name);
        }
        removed[i] = true;
      }
    }
    cascade();
    checkLinks();
    int[] sectionMap = sectionMap();
    int symtab = findSymtab();
    if (symtab > 0) {
      int[] symbolMap = rewriteSymbols(symtab, sectionMap);
      for (int i = 1; i < n; i++) {
        WorkSection s = secs.get(i);
        if (!removed[i] && s.isReloc() && s.link == symtab) {
          rewriteRelocations(s, symbolMap);
        } else if (!removed[i] && s.is(SectionType.GROUP) && s.link == symtab) {
          s.info = mapSymbol(symbolMap, s.info, s.name + " signature");
        }
      }
    }
    rewriteGroups(sectionMap);
    compact(sectionMap);
  }

  private void cascade() {
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int i = 1; i < secs.size(); i++) {
        WorkSection s = secs.get(i);
        if (removed[i]) {
          continue;
        }
        boolean goes =
            (s.isReloc() && isRemoved(s.info))
                || ((s.flags & SectionFlags.LINK_ORDER) != 0 && isRemoved(s.link))
                || (s.is(SectionType.GROUP) && keptMembers(s) == 0);
        if (goes) {
          removed[i] = true;
          changed = true;
        }
      }
    }
  }

  private boolean isRemoved(int index) {
    return index > 0 && index < removed.length && removed[index];
  }

  private int keptMembers(WorkSection group) {
    ByteBuffer b = le(group.data);
    int kept = 0;
    for (int p = 4; p + 4 <= b.limit(); p += 4) {
      kept += isRemoved(b.getInt(p)) ? 0 : 1;
    }
    return kept;
  }

  private void checkLinks() throws ObjectEditException {
    for (int i = 1; i < secs.size(); i++) {
      WorkSection s = secs.get(i);
      if (!removed[i] && isRemoved(s.link)) {
        throw fail(
            "expected no kept section to link to a removed one, found "
                + s.name
                + " linking to "
                + secs.get(s.link).name);
      }
    }
  }

  private int[] sectionMap() {
    int[] map = new int[secs.size()];
    int next = 0;
    for (int i = 0; i < secs.size(); i++) {
      map[i] = removed[i] ? -1 : next++;
    }
    return map;
  }

  private int findSymtab() {
    for (int i = 1; i < secs.size(); i++) {
      if (secs.get(i).is(SectionType.SYMTAB)) {
        return i;
      }
    }
    return 0;
  }

  private WorkSection shndxTable(int symtab) {
    for (int i = 1; i < secs.size(); i++) {
      WorkSection s = secs.get(i);
      if (s.is(SectionType.SYMTAB_SHNDX) && s.link == symtab) {
        return s;
      }
    }
    return null;
  }

  /** Drops symbols of removed sections, remaps the rest; returns old to new symbol index. */
  private int[] rewriteSymbols(int symtabIndex, int[] sectionMap) throws ObjectEditException {
    WorkSection symtab = secs.get(symtabIndex);
    WorkSection xindex = shndxTable(symtabIndex);
    ByteBuffer in = le(symtab.data);
    ByteBuffer xin = xindex == null ? null : le(xindex.data);
    int count = symtab.data.length / SYM;
    int[] map = new int[count];
    ByteBuffer out = ByteBuffer.allocate(symtab.data.length).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer xout = xindex == null ? null : ByteBuffer.allocate(xindex.data.length);
    int kept = 0;
    int keptLocals = 0;
    for (int i = 0; i < count; i++) {
      int shndx = in.getShort(i * SYM + 6) & 0xffff;
      boolean extended = shndx == ElfHeader.SHN_XINDEX;
      int section = extended ? (xin == null ? 0 : xin.getInt(i * 4)) : shndx;
      boolean regular = extended || (section > 0 && section < ElfHeader.SHN_LORESERVE);
      if (i > 0 && regular && isRemoved(section)) {
        map[i] = -1;
        continue;
      }
      map[i] = kept;
      byte[] entry = new byte[SYM];
      in.get(i * SYM, entry);
      out.put(entry);
      int newSection = regular ? sectionMap[section] : section;
      if (extended) {
        xout.order(ByteOrder.LITTLE_ENDIAN).putInt(kept * 4, newSection);
      } else if (regular) {
        if (newSection >= ElfHeader.SHN_LORESERVE) {
          throw fail(
              "expected section indices below 0xff00 without SYMTAB_SHNDX, found " + newSection);
        }
        out.putShort(kept * SYM + 6, (short) newSection);
      } else if (xout != null) {
        xout.order(ByteOrder.LITTLE_ENDIAN).putInt(kept * 4, xin.getInt(i * 4));
      }
      keptLocals += i < symtab.info ? 1 : 0;
      kept++;
    }
    symtab.data = java.util.Arrays.copyOf(out.array(), kept * SYM);
    symtab.info = keptLocals;
    if (xindex != null) {
      xindex.data = java.util.Arrays.copyOf(xout.array(), kept * 4);
    }
    return map;
  }

  private void rewriteRelocations(WorkSection rel, int[] symbolMap) throws ObjectEditException {
    int entSize = rel.is(SectionType.RELA) ? 24 : 16;
    ByteBuffer b = le(rel.data);
    for (int p = 0; p + entSize <= b.limit(); p += entSize) {
      long info = b.getLong(p + 8);
      int sym = (int) (info >>> 32);
      String what = String.format("relocation at 0x%x in %s", b.getLong(p), rel.name);
      long newSym = mapSymbol(symbolMap, sym, what);
      b.putLong(p + 8, newSym << 32 | (info & 0xffffffffL));
    }
  }

  private int mapSymbol(int[] symbolMap, int sym, String what) throws ObjectEditException {
    if (sym < 0 || sym >= symbolMap.length) {
      throw fail(
          String.format(
              "%s: expected a symbol index below %d, found %d", what, symbolMap.length, sym));
    }
    if (symbolMap[sym] < 0) {
      throw fail(
          what
              + ": expected a symbol that survives the removal, found one defined in a removed section (symbol "
              + sym
              + ")");
    }
    return symbolMap[sym];
  }

  private void rewriteGroups(int[] sectionMap) {
    for (int i = 1; i < secs.size(); i++) {
      WorkSection g = secs.get(i);
      if (removed[i] || !g.is(SectionType.GROUP)) {
        continue;
      }
      ByteBuffer in = le(g.data);
      ByteBuffer out = ByteBuffer.allocate(g.data.length).order(ByteOrder.LITTLE_ENDIAN);
      out.putInt(in.getInt(0));
      for (int p = 4; p + 4 <= in.limit(); p += 4) {
        int member = in.getInt(p);
        if (!isRemoved(member)) {
          out.putInt(member > 0 && member < sectionMap.length ? sectionMap[member] : member);
        }
      }
      g.data = java.util.Arrays.copyOf(out.array(), out.position());
    }
  }

  private void compact(int[] sectionMap) {
    List<WorkSection> kept = new ArrayList<>();
    for (int i = 0; i < secs.size(); i++) {
      WorkSection s = secs.get(i);
      if (removed[i]) {
        continue;
      }
      if (s.link > 0 && s.link < sectionMap.length) {
        s.link = sectionMap[s.link];
      }
      boolean infoIsSection = s.isReloc() || (s.flags & SectionFlags.INFO_LINK) != 0;
      if (infoIsSection && s.info > 0 && s.info < sectionMap.length) {
        s.info = sectionMap[s.info];
      }
      kept.add(s);
    }
    secs.clear();
    secs.addAll(kept);
  }

  private ObjectEditException fail(String detail) {
    return new ObjectEditException(obj.path, detail);
  }

  private static ByteBuffer le(byte[] data) {
    return ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
  }
}
