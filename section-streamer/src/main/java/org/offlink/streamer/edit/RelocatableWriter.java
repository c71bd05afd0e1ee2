package org.offlink.streamer.edit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.offlink.runtime.AtomicFiles;
import org.offlink.runtime.LinkScope;
import org.offlink.runtime.NativeCharset;
import org.offlink.streamer.elf.ElfClass;
import org.offlink.streamer.elf.ElfData;
import org.offlink.streamer.elf.ElfHeader;
import org.offlink.streamer.elf.SectionHeader;
import org.offlink.streamer.write.ElfHeaders;

/**
 * Writes an {@link EditableObject} as an ELF64 little-endian relocatable, laid out afresh:
 *
 * <pre>
 * offset             contents
 * 0                  ELF header (64 bytes; identification, type, machine, flags as in the input)
 * 64 ...             section contents in section order, each at a file offset aligned to its
 *                    sh_addralign, but to at most 4096 (NOBITS sections take no bytes);
 *                    .shstrtab rebuilt from the final names
 * align 8            section header table (64 bytes per section); with 0xff00 or more sections
 *                    e_shnum = 0 and section 0's sh_size holds the count, and an e_shstrndx of
 *                    0xff00 or more is written as SHN_XINDEX with the index in section 0's sh_link
 * </pre>
 *
 * Relocatable objects refer to no file offsets except through the headers, so a fresh layout keeps
 * every section's contents byte for byte and the output deterministic.
 */
final class RelocatableWriter {
  private static final int EHDR = 64;
  private static final int SHDR = 64;

  /**
   * The largest file-offset alignment written. sh_addralign constrains addresses, which the linker
   * assigns; in a relocatable object nothing depends on a file offset beyond the headers, so an
   * sh_addralign of 2^40 is kept in the header but does not make us write terabytes of zeros
   * (padding stays under a page per section).
   */
  static final long MAX_FILE_ALIGN = 4096;

  private RelocatableWriter() {}

  static void write(LinkScope scope, EditableObject obj, Path out) throws IOException {
    List<WorkSection> secs = obj.sections;
    int[] nameIndex = buildNames(obj);
    long[] offsets = new long[secs.size()];
    long pos = EHDR;
    for (int i = 1; i < secs.size(); i++) {
      WorkSection s = secs.get(i);
      pos = align(pos, Math.min(s.addralign, MAX_FILE_ALIGN));
      offsets[i] = pos;
      pos += s.isNobits() ? 0 : s.data.length;
    }
    long shoff = align(pos, 8);
    int shstrndx = obj.shstrtab == null ? 0 : secs.indexOf(obj.shstrtab);
    AtomicFiles.write(
        scope,
        out,
        o -> {
          ElfHeader written = headerOf(obj.header, shoff, secs.size(), shstrndx);
          ByteBuffer h = ByteBuffer.allocate(EHDR);
          ElfHeaders.write(h, written);
          o.write(h.array());
          long at = EHDR;
          for (int i = 1; i < secs.size(); i++) {
            WorkSection s = secs.get(i);
            if (s.isNobits()) {
              continue;
            }
            at = pad(o, at, offsets[i]);
            o.write(s.data);
            at += s.data.length;
          }
          pad(o, at, shoff);
          writeSectionTable(o, written, secs, nameIndex, offsets);
        });
  }

  /** Rebuilds .shstrtab (content and name offsets); returns each section's sh_name. */
  private static int[] buildNames(EditableObject obj) {
    List<WorkSection> secs = obj.sections;
    int[] idx = new int[secs.size()];
    if (obj.shstrtab == null) {
      return idx;
    }
    ByteArrayOutputStream table = new ByteArrayOutputStream();
    boolean shared = false;
    for (WorkSection s : secs) {
      shared |=
          s != obj.shstrtab
              && s.link > 0
              && s.link < secs.size()
              && secs.get(s.link) == obj.shstrtab;
    }
    // A name table also used for symbol names must keep its old bytes; names are appended.
    if (shared) {
      table.writeBytes(obj.shstrtab.data);
    } else {
      table.write(0);
    }
    Map<String, Integer> seen = new LinkedHashMap<>();
    for (int i = 1; i < secs.size(); i++) {
      String name = secs.get(i).name;
      Integer at = seen.get(name);
      if (at == null) {
        at = table.size();
        table.writeBytes((name + "\0").getBytes(NativeCharset.CHARSET));
        seen.put(name, at);
      }
      idx[i] = at;
    }
    obj.shstrtab.data = table.toByteArray();
    return idx;
  }

  /** The output's header: the input's identity, the new section table (ELF64, little-endian). */
  private static ElfHeader headerOf(ElfHeader h, long shoff, int count, int shstrndx) {
    return new ElfHeader(
        ElfClass.ELF64,
        ElfData.LSB,
        h.osAbi(),
        h.abiVersion(),
        h.rawType(),
        h.machine(),
        h.version(),
        h.entry(),
        0,
        shoff,
        h.flags(),
        EHDR,
        h.phentsize(),
        0,
        SHDR,
        count,
        shstrndx);
  }

  private static void writeSectionTable(
      OutputStream o, ElfHeader h, List<WorkSection> secs, int[] names, long[] offsets)
      throws IOException {
    ByteBuffer b = ByteBuffer.allocate(SHDR).order(ByteOrder.LITTLE_ENDIAN);
    ElfHeaders.writeSection(b, ElfClass.ELF64, SectionHeader.zero(h));
    o.write(b.array());
    for (int i = 1; i < secs.size(); i++) {
      WorkSection s = secs.get(i);
      b.clear();
      ElfHeaders.writeSection(
          b,
          ElfClass.ELF64,
          new SectionHeader(
              names[i],
              Integer.toUnsignedLong(s.type),
              s.flags,
              s.addr,
              offsets[i],
              s.size(),
              Integer.toUnsignedLong(s.link),
              Integer.toUnsignedLong(s.info),
              s.addralign,
              s.entsize));
      o.write(b.array());
    }
  }

  private static long pad(OutputStream o, long at, long to) throws IOException {
    if (at < to) {
      o.write(new byte[(int) (to - at)]); // under MAX_FILE_ALIGN (or 8) bytes
    }
    return Math.max(at, to);
  }

  private static long align(long v, long a) {
    return a <= 1 ? v : (v + a - 1) / a * a;
  }
}
