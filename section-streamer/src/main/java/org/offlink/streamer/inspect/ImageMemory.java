package org.offlink.streamer.inspect;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.offlink.runtime.NativeCharset;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.elf.ElfClass;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfMachine;
import org.offlink.streamer.elf.ElfRelocation;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.elf.ElfSymbol;
import org.offlink.streamer.elf.ElfType;
import org.offlink.streamer.elf.SectionFlags;
import org.offlink.streamer.elf.SectionType;

/**
 * The load image of a linked x86-64 ELF64 executable or shared object, addressed by virtual address
 * as the program sees it before the dynamic loader adds its base: bytes come from the allocated
 * sections ({@code SHF_ALLOC}; {@code NOBITS} reads as zeros), and pointer-sized words that the
 * loader relocates are taken from the dynamic relocations instead of the file.
 *
 * <pre>
 * dynamic relocation (x86-64)   value of the 8-byte word at r_offset
 * R_X86_64_64        (1)        S + A   (S = st_value of the .dynsym symbol; 0 when undefined)
 * R_X86_64_GLOB_DAT  (6)        S
 * R_X86_64_RELATIVE  (8)        A       (the link-time address; PIE and shared objects)
 * </pre>
 *
 * Non-PIE executables have no RELATIVE relocations; their pointers are in the data as linked.
 * Section contents are read once and cached.
 */
public final class ImageMemory {
  private static final int R_X86_64_64 = 1;
  private static final int R_X86_64_GLOB_DAT = 6;
  private static final int R_X86_64_RELATIVE = 8;

  private final ElfFile elf;
  private final List<ElfSection> mapped;
  private final Map<Long, Long> relocatedWords;
  private final Map<Integer, byte[]> cache = new HashMap<>();
  private long cachedBytes;

  private ImageMemory(ElfFile elf, List<ElfSection> mapped, Map<Long, Long> relocatedWords) {
    this.elf = elf;
    this.mapped = mapped;
    this.relocatedWords = relocatedWords;
  }

  /** Whether {@code elf} is a linked image this class can map (executable or shared, ELF64). */
  public static boolean isLinkedImage(ElfFile elf) {
    ElfType t = elf.header().type();
    return (t == ElfType.EXEC || t == ElfType.DYN) && elf.header().elfClass() == ElfClass.ELF64;
  }

  /** Maps {@code elf}, which must be a linked ELF64 image. */
  public static ImageMemory of(ElfFile elf) throws IOException {
    if (!isLinkedImage(elf)) {
      throw new MalformedObjectException(
          elf.path(),
          elf.baseOffset(),
          "expected a linked ELF64 executable or shared object, found type "
              + elf.header().type()
              + " "
              + elf.header().elfClass());
    }
    List<ElfSection> mapped = new ArrayList<>();
    for (ElfSection s : elf.sections()) {
      if (s.hasFlags(SectionFlags.ALLOC) && s.size() > 0 && s.type() != SectionType.NULL) {
        mapped.add(s);
      }
    }
    mapped.sort(Comparator.comparingLong(ElfSection::addr));
    return new ImageMemory(elf, List.copyOf(mapped), dynamicWords(elf));
  }

  private static Map<Long, Long> dynamicWords(ElfFile elf) throws IOException {
    Map<Long, Long> words = new HashMap<>();
    if (elf.header().machine() != ElfMachine.X86_64) {
      return words;
    }
    for (ElfSection s : elf.sections()) {
      if (s.type() != SectionType.RELA || !s.hasFlags(SectionFlags.ALLOC)) {
        continue;
      }
      List<ElfSymbol> symbols =
          s.link() > 0 ? elf.symbols(elf.section(s.link())) : List.<ElfSymbol>of();
      for (ElfRelocation r : elf.relocations(s)) {
        Long value = relocatedValue(r, symbols);
        if (value != null) {
          words.put(r.offset(), value);
        }
      }
    }
    return words;
  }

  private static Long relocatedValue(ElfRelocation r, List<ElfSymbol> symbols) {
    if (r.type() == R_X86_64_RELATIVE) {
      return r.addend();
    }
    if (r.type() != R_X86_64_64 && r.type() != R_X86_64_GLOB_DAT) {
      return null;
    }
    long s = 0;
    if (r.symbolIndex() < symbols.size()) {
      ElfSymbol sym = symbols.get((int) r.symbolIndex());
      s = sym.sectionIndex() == ElfSymbol.SHN_UNDEF ? 0 : sym.value();
    }
    return r.type() == R_X86_64_GLOB_DAT ? s : s + r.addend();
  }

  /** The file the image was read from. */
  public Path path() {
    return elf.path();
  }

  /** The size of the file (or archive member) this image was read from. */
  public long fileSize() {
    return elf.length();
  }

  /**
   * {@code length} bytes at virtual address {@code address}, all inside one section. A read longer
   * than the file itself is malformed even inside a {@code NOBITS} section (which reads as zeros):
   * a table claiming gigabytes there must not make us allocate them.
   */
  public byte[] read(long address, long length) throws IOException {
    if (length > elf.length()) {
      throw malformed(
          address,
          String.format(
              "expected at most the file's %d bytes, found a claim of %d bytes",
              elf.length(), length));
    }
    ElfSection s = sectionAt(address, length);
    byte[] out = new byte[Math.toIntExact(length)];
    if (s.hasFileData()) {
      System.arraycopy(data(s), (int) (address - s.addr()), out, 0, out.length);
    }
    return out;
  }

  /** Whether {@code [address, address + length)} lies inside one allocated section. */
  public boolean contains(long address, long length) {
    return find(address, length) != null;
  }

  /** The pointer-sized word at {@code address}, as the loader leaves it (before adding a base). */
  public long pointer(long address) throws IOException {
    Long relocated = relocatedWords.get(address);
    return relocated != null ? relocated : u64(address);
  }

  /** The little-endian unsigned 64-bit word at {@code address}. */
  public long u64(long address) throws IOException {
    return ByteBuffer.wrap(read(address, 8)).order(ByteOrder.LITTLE_ENDIAN).getLong();
  }

  /** The little-endian unsigned 32-bit word at {@code address}. */
  public long u32(long address) throws IOException {
    return ByteBuffer.wrap(read(address, 4)).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xffffffffL;
  }

  /** The little-endian signed 32-bit word at {@code address}. */
  public int s32(long address) throws IOException {
    return ByteBuffer.wrap(read(address, 4)).order(ByteOrder.LITTLE_ENDIAN).getInt();
  }

  /** The little-endian unsigned 16-bit word at {@code address}. */
  public int u16(long address) throws IOException {
    return ByteBuffer.wrap(read(address, 2)).order(ByteOrder.LITTLE_ENDIAN).getShort() & 0xffff;
  }

  /** The NUL-terminated string at {@code address} (UTF-8), which must end inside its section. */
  public String cString(long address) throws IOException {
    ElfSection s = sectionAt(address, 1);
    byte[] d = data(s);
    int start = (int) (address - s.addr());
    int end = start;
    while (end < d.length && d[end] != 0) {
      end++;
    }
    if (end == d.length) {
      throw malformed(address, "expected a NUL-terminated string, found none before the end");
    }
    return new String(d, start, end - start, NativeCharset.CHARSET);
  }

  private ElfSection sectionAt(long address, long length) throws MalformedObjectException {
    ElfSection s = find(address, length);
    if (s == null) {
      throw malformed(
          address, "expected " + length + " mapped bytes, found an address outside every section");
    }
    return s;
  }

  private ElfSection find(long address, long length) {
    if (length < 0) {
      return null;
    }
    for (ElfSection s : mapped) {
      if (Long.compareUnsigned(address, s.addr()) >= 0
          && Long.compareUnsigned(address - s.addr(), s.size()) < 0
          && length <= s.size() - (address - s.addr())) {
        return s;
      }
    }
    return null;
  }

  private byte[] data(ElfSection s) throws IOException {
    byte[] d = cache.get(s.index());
    if (d == null) {
      // Sections of a real image do not overlap, so what is cached never exceeds the file; many
      // headers naming one large region would otherwise multiply it.
      if (s.hasFileData() && cachedBytes + s.size() > elf.length()) {
        throw malformed(
            s.addr(),
            String.format(
                "expected sections holding at most the file's %d bytes in all, found section [%d]"
                    + " %s overlapping others",
                elf.length(), s.index(), s.name()));
      }
      d = elf.readSectionData(s);
      cachedBytes += d.length;
      cache.put(s.index(), d);
    }
    return d;
  }

  MalformedObjectException malformed(long address, String detail) {
    return new MalformedObjectException(
        elf.path(), -1, String.format("virtual address 0x%x: %s", address, detail));
  }
}
