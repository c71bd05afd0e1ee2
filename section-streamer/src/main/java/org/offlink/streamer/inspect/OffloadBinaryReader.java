package org.offlink.streamer.inspect;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.offlink.runtime.NativeCharset;
import org.offlink.streamer.MalformedObjectException;

/**
 * Reads the OffloadBinaries concatenated in one {@code .llvm.offloading} section (layout in {@link
 * OffloadBinary}): each is walked by its {@code size}, and the cursor re-aligned to 8 between them,
 * as relocatable links concatenate sections. Every offset is checked against the binary.
 */
public final class OffloadBinaryReader {
  private static final int HEADER_V1 = 32;
  private static final int HEADER_V3 = 40;
  private static final int ENTRY = 40;
  private static final int MAX_VERSION = 3;

  private final Path file;
  private final long fileOffset;

  /** A reader for a section at {@code fileOffset} of {@code file} (for error messages only). */
  public OffloadBinaryReader(Path file, long fileOffset) {
    this.file = file;
    this.fileOffset = fileOffset;
  }

  /** All binaries in {@code section}. */
  public List<OffloadBinary> readAll(byte[] section) throws MalformedObjectException {
    List<OffloadBinary> out = new ArrayList<>();
    long at = 0;
    while (at < section.length) {
      OffloadBinary b = read(section, (int) at);
      out.add(b);
      at = (at + b.size() + 7) & ~7L;
    }
    return out;
  }

  private OffloadBinary read(byte[] section, int at) throws MalformedObjectException {
    if (section.length - at < HEADER_V1) {
      throw malformed(
          at, "expected a 32-byte OffloadBinary header, found " + (section.length - at));
    }
    ByteBuffer b = ByteBuffer.wrap(section).order(ByteOrder.LITTLE_ENDIAN);
    int magic = b.getInt(at);
    if (magic != OffloadBinary.MAGIC) {
      throw malformed(
          at,
          String.format(
              "expected OffloadBinary magic 10 ff 10 ad, found %08x", Integer.reverseBytes(magic)));
    }
    int version = b.getInt(at + 4);
    if (version < 1 || version > MAX_VERSION) {
      throw malformed(
          at + 4, "expected OffloadBinary version 1.." + MAX_VERSION + ", found " + version);
    }
    long size = b.getLong(at + 8);
    int header = version >= 3 ? HEADER_V3 : HEADER_V1;
    if (size < header || size > section.length - at) {
      throw malformed(
          at + 8,
          String.format(
              "expected a binary size between %d and the %d bytes left, found %d",
              header, section.length - at, size));
    }
    ByteBuffer one =
        ByteBuffer.wrap(section, at, (int) size).slice().order(ByteOrder.LITTLE_ENDIAN);
    if (version >= 3 && one.getLong(32) != 0) {
      return new OffloadBinary(at, version, size, true, List.of());
    }
    long entriesOffset = one.getLong(16);
    long count = version == 1 ? 1 : one.getLong(24);
    check(at, entriesOffset, count, ENTRY, size, "entries");
    List<OffloadBinaryEntry> entries = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      entries.add(entry(one, at, (int) (entriesOffset + (long) ENTRY * i), version, size));
    }
    return new OffloadBinary(at, version, size, false, entries);
  }

  private OffloadBinaryEntry entry(ByteBuffer one, int base, int e, int version, long size)
      throws MalformedObjectException {
    int imageKind = one.getShort(e) & 0xffff;
    int offloadKind = one.getShort(e + 2) & 0xffff;
    long flags = one.getInt(e + 4) & 0xffffffffL;
    long stringsOffset = one.getLong(e + 8);
    long stringCount = one.getLong(e + 16);
    long imageOffset = one.getLong(e + 24);
    long imageSize = one.getLong(e + 32);
    int stride = version == 1 ? 16 : 24;
    check(base, stringsOffset, stringCount, stride, size, "string map");
    check(base, imageOffset, 1, imageSize, size, "image");
    Map<String, String> strings = new LinkedHashMap<>();
    for (int i = 0; i < stringCount; i++) {
      int s = (int) (stringsOffset + (long) stride * i);
      String key = string(one, base, one.getLong(s), -1, size);
      long valueSize = version == 1 ? -1 : one.getLong(s + 16);
      strings.put(key, string(one, base, one.getLong(s + 8), valueSize, size));
    }
    return new OffloadBinaryEntry(
        ImageKind.fromRaw(imageKind),
        imageKind,
        offloadKind,
        flags,
        strings,
        imageOffset,
        imageSize);
  }

  private String string(ByteBuffer one, int base, long offset, long length, long size)
      throws MalformedObjectException {
    if (offset < 0 || offset >= size) {
      throw malformed(base, "expected a string offset inside the binary, found " + offset);
    }
    int end = (int) offset;
    if (length >= 0) {
      check(base, offset, 1, length, size, "string");
      end = (int) (offset + length);
    } else {
      while (end < size && one.get(end) != 0) {
        end++;
      }
      if (end == size) {
        throw malformed(base + offset, "expected a NUL-terminated string, found the binary's end");
      }
    }
    byte[] bytes = new byte[end - (int) offset];
    one.get((int) offset, bytes);
    return new String(bytes, NativeCharset.CHARSET);
  }

  private void check(int base, long offset, long count, long stride, long size, String what)
      throws MalformedObjectException {
    if (offset < 0
        || count < 0
        || stride < 0
        || offset > size
        || (stride != 0 && count > (size - offset) / stride)) {
      throw malformed(
          base,
          String.format(
              "expected %s (%d x %d bytes at %d) inside the binary of %d bytes, found it outside",
              what, count, stride, offset, size));
    }
  }

  private MalformedObjectException malformed(long at, String detail) {
    return new MalformedObjectException(file, fileOffset + at, ".llvm.offloading: " + detail);
  }

  /** The image bytes of {@code entry} in {@code binary} within {@code section}. */
  public static byte[] image(byte[] section, OffloadBinary binary, OffloadBinaryEntry entry) {
    int from = (int) (binary.offset() + entry.imageOffset());
    byte[] out = new byte[(int) entry.imageSize()];
    System.arraycopy(section, from, out, 0, out.length);
    return out;
  }
}
