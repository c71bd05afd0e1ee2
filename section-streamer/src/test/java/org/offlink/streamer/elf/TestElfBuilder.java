package org.offlink.streamer.elf;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds small ELF objects of any class and byte order for tests: sections with given contents, an
 * optional symbol table, extended numbering when there are 0xff00 or more sections, and data placed
 * at an arbitrary (possibly huge, sparse) offset.
 */
public final class TestElfBuilder {
  /** One section to emit. */
  public record Sec(
      String name,
      int type,
      long flags,
      byte[] data,
      int link,
      int info,
      long align,
      long entsize) {}

  /** One symbol to emit. */
  public record Sym(String name, long value, long size, int info, int other, int shndx) {}

  /** A built object: byte chunks at absolute offsets plus layout facts for corruption tests. */
  public record Image(
      long length, List<Long> chunkOffsets, List<byte[]> chunks, long shoff, long[] dataOffsets) {
    /** The contiguous bytes (only for images below 2 GiB). */
    public byte[] toBytes() {
      byte[] out = new byte[Math.toIntExact(length)];
      for (int i = 0; i < chunks.size(); i++) {
        byte[] c = chunks.get(i);
        System.arraycopy(c, 0, out, (int) (long) chunkOffsets.get(i), c.length);
      }
      return out;
    }

    /** Writes the image as a sparse file. */
    public void writeTo(Path file) throws IOException {
      try (FileChannel ch =
          FileChannel.open(
              file,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.SPARSE)) {
        for (int i = 0; i < chunks.size(); i++) {
          ByteBuffer b = ByteBuffer.wrap(chunks.get(i));
          long pos = chunkOffsets.get(i);
          while (b.hasRemaining()) {
            pos += ch.write(b, pos);
          }
        }
        if (ch.size() < length) {
          ch.write(ByteBuffer.wrap(new byte[1]), length - 1);
        }
      }
    }
  }

  private final ElfClass elfClass;
  private final ElfData data;
  private final List<Sec> sections = new ArrayList<>();
  private int type = 1;
  private int machine = ElfMachine.X86_64;
  private long flags;
  private long dataStart;

  public TestElfBuilder(ElfClass elfClass, ElfData data) {
    this.elfClass = elfClass;
    this.data = data;
  }

  public TestElfBuilder type(int type) {
    this.type = type;
    return this;
  }

  public TestElfBuilder machine(int machine) {
    this.machine = machine;
    return this;
  }

  public TestElfBuilder flags(long flags) {
    this.flags = flags;
    return this;
  }

  /** Places section data starting at this offset (the gap stays a hole in sparse files). */
  public TestElfBuilder dataStart(long dataStart) {
    this.dataStart = dataStart;
    return this;
  }

  /** Adds a section and returns its index. */
  public int section(Sec s) {
    sections.add(s);
    return sections.size();
  }

  /** Adds a PROGBITS section with the given bytes and returns its index. */
  public int progbits(String name, byte[] bytes) {
    return section(new Sec(name, 1, SectionFlags.ALLOC, bytes, 0, 0, 1, 0));
  }

  /** Adds {@code .symtab} and {@code .strtab} with a leading null symbol; returns symtab index. */
  public int symtab(List<Sym> symbols, int firstGlobal) {
    ByteArrayOutputStream names = new ByteArrayOutputStream();
    names.write(0);
    int size = elfClass.symbolSize();
    ByteBuffer b = ByteBuffer.allocate(size * (symbols.size() + 1)).order(data.byteOrder());
    b.position(size);
    for (Sym s : symbols) {
      int nameIndex = names.size();
      names.writeBytes((s.name() + "\0").getBytes(StandardCharsets.UTF_8));
      b.putInt(nameIndex);
      if (elfClass == ElfClass.ELF64) {
        b.put((byte) s.info()).put((byte) s.other()).putShort((short) s.shndx());
        b.putLong(s.value()).putLong(s.size());
      } else {
        b.putInt((int) s.value()).putInt((int) s.size());
        b.put((byte) s.info()).put((byte) s.other()).putShort((short) s.shndx());
      }
    }
    int symtab = sections.size() + 1;
    section(new Sec(".symtab", 2, 0, b.array(), symtab + 1, firstGlobal, 8, size));
    section(new Sec(".strtab", 3, 0, names.toByteArray(), 0, 0, 1, 0));
    return symtab;
  }

  public Image build() {
    ByteArrayOutputStream shstr = new ByteArrayOutputStream();
    shstr.write(0);
    int[] nameIdx = new int[sections.size() + 1];
    for (int i = 0; i < sections.size(); i++) {
      nameIdx[i] = shstr.size();
      shstr.writeBytes((sections.get(i).name() + "\0").getBytes(StandardCharsets.UTF_8));
    }
    nameIdx[sections.size()] = shstr.size();
    shstr.writeBytes(".shstrtab\0".getBytes(StandardCharsets.UTF_8));
    List<Sec> all = new ArrayList<>(sections);
    all.add(new Sec(".shstrtab", 3, 0, shstr.toByteArray(), 0, 0, 1, 0));

    List<Long> offsets = new ArrayList<>();
    List<byte[]> chunks = new ArrayList<>();
    long pos = Math.max(elfClass.headerSize(), dataStart);
    long[] dataOffsets = new long[all.size() + 1];
    for (int i = 0; i < all.size(); i++) {
      Sec s = all.get(i);
      pos = align(pos, Math.max(1, s.align()));
      dataOffsets[i + 1] = pos;
      if (s.type() != 8) {
        offsets.add(pos);
        chunks.add(s.data());
        pos += s.data().length;
      }
    }
    long shoff = align(pos, 8);
    int count = all.size() + 1;
    int shstrndx = all.size();
    ByteBuffer table = ByteBuffer.allocate(count * elfClass.sectionHeaderSize());
    table.order(data.byteOrder());
    long zeroSize = count >= ElfHeader.SHN_LORESERVE ? count : 0;
    int zeroLink = shstrndx >= ElfHeader.SHN_LORESERVE ? shstrndx : 0;
    putSection(table, 0, 0, 0, 0, zeroSize, zeroLink, 0, 0, 0);
    for (int i = 0; i < all.size(); i++) {
      Sec s = all.get(i);
      putSection(
          table,
          nameIdx[i],
          s.type(),
          s.flags(),
          dataOffsets[i + 1],
          s.data().length,
          s.link(),
          s.info(),
          s.align(),
          s.entsize());
    }
    offsets.add(shoff);
    chunks.add(table.array());
    offsets.add(0, 0L);
    chunks.add(
        0,
        header(
            shoff,
            count >= ElfHeader.SHN_LORESERVE ? 0 : count,
            shstrndx >= ElfHeader.SHN_LORESERVE ? ElfHeader.SHN_XINDEX : shstrndx));
    return new Image(shoff + table.capacity(), offsets, chunks, shoff, dataOffsets);
  }

  private byte[] header(long shoff, int shnum, int shstrndx) {
    ByteBuffer b = ByteBuffer.allocate(elfClass.headerSize()).order(data.byteOrder());
    b.put(new byte[] {0x7f, 'E', 'L', 'F', (byte) elfClass.raw(), (byte) data.raw(), 1, 0});
    b.position(16);
    b.putShort((short) type).putShort((short) machine).putInt(1);
    putAddr(b, 0x401000); // entry
    putAddr(b, 0); // phoff
    putAddr(b, shoff);
    b.putInt((int) flags);
    b.putShort((short) elfClass.headerSize()).putShort((short) 0).putShort((short) 0);
    b.putShort((short) elfClass.sectionHeaderSize());
    b.putShort((short) shnum).putShort((short) shstrndx);
    return b.array();
  }

  private void putSection(
      ByteBuffer b,
      int name,
      int type,
      long flags,
      long offset,
      long size,
      int link,
      int info,
      long align,
      long entsize) {
    b.putInt(name).putInt(type);
    putAddr(b, flags);
    putAddr(b, 0);
    putAddr(b, offset);
    putAddr(b, size);
    b.putInt(link).putInt(info);
    putAddr(b, align);
    putAddr(b, entsize);
  }

  private void putAddr(ByteBuffer b, long v) {
    if (elfClass == ElfClass.ELF64) {
      b.putLong(v);
    } else {
      b.putInt((int) v);
    }
  }

  private static long align(long v, long a) {
    return (v + a - 1) / a * a;
  }

  /** Patches an unsigned field of {@code width} bytes in place. */
  public static void patch(byte[] bytes, ByteOrder order, long offset, int width, long value) {
    ByteBuffer b = ByteBuffer.wrap(bytes).order(order);
    int at = Math.toIntExact(offset);
    switch (width) {
      case 1 -> b.put(at, (byte) value);
      case 2 -> b.putShort(at, (short) value);
      case 4 -> b.putInt(at, (int) value);
      case 8 -> b.putLong(at, value);
      default -> throw new IllegalArgumentException("width " + width);
    }
  }
}
