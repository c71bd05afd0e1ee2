package org.offlink.streamer.inspect;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.offlink.runtime.NativeCharset;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfRelocation;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.elf.ElfSymbol;
import org.offlink.streamer.elf.SectionType;

/**
 * Reads LLVM's host offload entry tables (layouts in {@link LlvmOffloadEntry}). In a linked image
 * the name pointer is read through {@link ImageMemory}; in a relocatable object through the
 * section's RELA relocation at the name field (symbol + addend into a string section).
 */
public final class LlvmEntryReader {
  /** The sections with the legacy 32-byte layout. */
  public static final List<String> LEGACY_SECTIONS =
      List.of("omp_offloading_entries", "cuda_offloading_entries", "hip_offloading_entries");

  /** The section with the current 56-byte layout. */
  public static final String CURRENT_SECTION = "llvm_offload_entries";

  private LlvmEntryReader() {}

  /** Whether {@code name} is an LLVM entry section. */
  public static boolean isEntrySection(String name) {
    return LEGACY_SECTIONS.contains(name) || CURRENT_SECTION.equals(name);
  }

  /** The entries of {@code section}; {@code memory} is present for linked images. */
  public static List<LlvmOffloadEntry> read(
      ElfFile elf, ElfSection section, Optional<ImageMemory> memory) throws IOException {
    boolean current = CURRENT_SECTION.equals(section.name());
    int stride = current ? 56 : 32;
    if (section.size() % stride != 0) {
      throw new MalformedObjectException(
          elf.path(),
          elf.baseOffset() + section.offset(),
          String.format(
              "section %s: expected %d-byte entries, found %d bytes",
              section.name(), stride, section.size()));
    }
    byte[] data = elf.readSectionData(section);
    ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
    Map<Long, String> relocatedNames =
        memory.isPresent() ? Map.of() : relocatedStrings(elf, section);
    List<LlvmOffloadEntry> out = new ArrayList<>();
    for (int at = 0; at + stride <= data.length; at += stride) {
      int nameField = at + (current ? 24 : 8);
      String name =
          memory.isPresent()
              ? memory.get().cString(memory.get().pointer(section.addr() + nameField))
              : relocatedNames.getOrDefault((long) nameField, "");
      long size = b.getLong(at + (current ? 32 : 16));
      long flags = b.getInt(at + (current ? 12 : 24)) & 0xffffffffL;
      int kind = current ? b.getShort(at + 10) & 0xffff : -1;
      out.add(new LlvmOffloadEntry(section.name(), name, size, flags, kind));
    }
    return out;
  }

  private static Map<Long, String> relocatedStrings(ElfFile elf, ElfSection section)
      throws IOException {
    Map<Long, String> names = new HashMap<>();
    for (ElfSection rela : elf.sections()) {
      if (rela.type() != SectionType.RELA || rela.info() != section.index()) {
        continue;
      }
      List<ElfSymbol> symbols = elf.symbols(elf.section(rela.link()));
      for (ElfRelocation r : elf.relocations(rela)) {
        if (r.symbolIndex() >= symbols.size()) {
          continue;
        }
        ElfSymbol s = symbols.get((int) r.symbolIndex());
        if (s.sectionIndex() == 0 || s.sectionIndex() >= elf.sections().size()) {
          continue;
        }
        byte[] target = elf.readSectionData(elf.section(s.sectionIndex()));
        long from = s.value() + r.addend();
        if (from >= 0 && from < target.length) {
          int end = (int) from;
          while (end < target.length && target[end] != 0) {
            end++;
          }
          names.put(
              r.offset(), new String(target, (int) from, end - (int) from, NativeCharset.CHARSET));
        }
      }
    }
    return names;
  }
}
