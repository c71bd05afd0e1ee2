package org.offlink.bridge.wrapper;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The contents of one wrapper data section under construction, with the named objects placed in it
 * and the 8-byte pointers that need an {@code R_X86_64_64} relocation. Little-endian, LP64.
 */
final class DataBlock {
  /** A named object: its offset, size and the C name GCC gives it. */
  record Placement(String name, long offset, long size) {}

  /** An 8-byte pointer at {@code offset} to {@code target}'s section plus {@code addend}. */
  record Pointer(long offset, DataBlock target, long addend) {}

  private final String sectionName;
  private byte[] bytes;
  private int used;
  private final List<Placement> objects = new ArrayList<>();
  private final List<Pointer> pointers = new ArrayList<>();
  private final Map<String, Long> literals = new LinkedHashMap<>();
  private long alignment = 1;

  DataBlock(String sectionName) {
    this(sectionName, 32);
  }

  /** A block expected to hold about {@code capacity} bytes (a device image: no regrowth copies). */
  DataBlock(String sectionName, int capacity) {
    this.sectionName = sectionName;
    this.bytes = new byte[Math.max(capacity, 16)];
  }

  /**
   * A block holding {@code contents} as read back from a wrapper object, aligned to {@code
   * alignment}, for {@link WrapperObjectCheck} to assemble again; its objects and pointers are
   * added with {@link #place} and {@link #point}. The array is taken over, not copied.
   */
  static DataBlock restored(String sectionName, byte[] contents, long alignment) {
    DataBlock b = new DataBlock(sectionName, 0);
    b.bytes = contents;
    b.used = contents.length;
    b.alignment = alignment;
    return b;
  }

  /**
   * A restored block of {@code size} bytes whose contents are not needed (a device image that
   * {@link WrapperObjectVerifier} compares where it lies, not byte by byte): {@link #buffer()} is
   * null and the assembler reserves the section, leaving its bytes zero.
   */
  static DataBlock reserved(String sectionName, int size, long alignment) {
    DataBlock b = new DataBlock(sectionName, 0);
    b.bytes = null;
    b.used = size;
    b.alignment = alignment;
    return b;
  }

  /** Records an object placed in a restored block. */
  void place(Placement object) {
    objects.add(object);
  }

  /** Records a pointer in a restored block. */
  void point(Pointer pointer) {
    pointers.add(pointer);
  }

  String sectionName() {
    return sectionName;
  }

  /**
   * Starts a named object of {@code size} bytes whose C type has {@code naturalAlignment}, aligned
   * as GCC 12 aligns static data on x86-64 without {@code -Os}: 32 bytes from 32 bytes of size
   * (ix86_data_alignment's optimisation rule), 16 from 16 bytes (the psABI rule for aggregates),
   * else the type's own alignment.
   */
  long beginObject(String name, long size, int naturalAlignment) {
    int align = size >= 32 ? 32 : size >= 16 ? 16 : naturalAlignment;
    align = Math.max(align, naturalAlignment);
    alignTo(align);
    long offset = used;
    objects.add(new Placement(name, offset, size));
    return offset;
  }

  /**
   * The offset of a NUL-terminated string literal, placed (1-aligned) on first use; GCC shares
   * identical literals of one translation unit the same way.
   */
  long literal(String text) {
    Long known = literals.get(text);
    if (known != null) {
      return known;
    }
    long offset = used;
    putBytes(text.getBytes(org.offlink.runtime.NativeCharset.CHARSET));
    putU8(0);
    literals.put(text, offset);
    return offset;
  }

  void alignTo(int align) {
    alignment = Math.max(alignment, align);
    int padding = (int) ((align - used % align) % align);
    ensure(padding);
    used += padding; // the array is zero-filled
  }

  void putBytes(byte[] data) {
    ensure(data.length);
    System.arraycopy(data, 0, bytes, used, data.length);
    used += data.length;
  }

  void putU8(int v) {
    ensure(1);
    bytes[used++] = (byte) v;
  }

  void putU16(int v) {
    ensure(2);
    bytes[used++] = (byte) v;
    bytes[used++] = (byte) (v >>> 8);
  }

  void putU32(long v) {
    putU16((int) v & 0xffff);
    putU16((int) (v >>> 16) & 0xffff);
  }

  void putU64(long v) {
    putU32(v & 0xffff_ffffL);
    putU32(v >>> 32);
  }

  /** An 8-byte pointer to {@code target} + {@code addend}; the bytes stay 0 (RELA addend). */
  void putPointer(DataBlock target, long addend) {
    pointers.add(new Pointer(used, target, addend));
    putU64(0);
  }

  long size() {
    return used;
  }

  long alignment() {
    return alignment;
  }

  /**
   * The backing array, of which the first {@link #size()} bytes are the block's: for handing a
   * finished block to the object writer without copying it (a device image is hundreds of KB); null
   * for a {@link #reserved} block.
   */
  byte[] buffer() {
    return bytes;
  }

  private void ensure(int more) {
    if (bytes.length - used < more) {
      long wanted = Math.max((long) used + more, 2L * bytes.length);
      bytes = Arrays.copyOf(bytes, (int) Math.min(wanted, Integer.MAX_VALUE - 8));
    }
  }

  List<Placement> objects() {
    return List.copyOf(objects);
  }

  List<Pointer> pointers() {
    return List.copyOf(pointers);
  }
}
