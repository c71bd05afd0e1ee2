package org.offlink.streamer.inspect;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes small LLVM OffloadBinaries with the documented layout (one entry; header, entry, string
 * map, string table, image at an 8-aligned offset, size padded to 8), for tests: there is no clang
 * on the build machines to produce real ones.
 */
final class OffloadBinaryFixture {
  private OffloadBinaryFixture() {}

  static byte[] write(
      int version, int imageKind, int offloadKind, Map<String, String> strings, byte[] image) {
    int header = version >= 3 ? 40 : 32;
    int entryAt = header;
    int mapAt = entryAt + 40;
    int stride = version == 1 ? 16 : 24;
    int stringsAt = mapAt + stride * strings.size();
    ByteArrayOutputStream table = new ByteArrayOutputStream();
    Map<String, Integer> keys = new LinkedHashMap<>();
    Map<String, Integer> values = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : strings.entrySet()) {
      keys.put(e.getKey(), stringsAt + table.size());
      table.writeBytes((e.getKey() + "\0").getBytes(StandardCharsets.UTF_8));
      values.put(e.getKey(), stringsAt + table.size());
      table.writeBytes((e.getValue() + "\0").getBytes(StandardCharsets.UTF_8));
    }
    int imageAt = align8(stringsAt + table.size());
    int size = align8(imageAt + image.length);
    ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0, OffloadBinary.MAGIC).putInt(4, version).putLong(8, size).putLong(16, entryAt);
    b.putLong(24, version == 1 ? 40 : 1);
    b.putShort(entryAt, (short) imageKind).putShort(entryAt + 2, (short) offloadKind);
    b.putInt(entryAt + 4, 0).putLong(entryAt + 8, mapAt).putLong(entryAt + 16, strings.size());
    b.putLong(entryAt + 24, imageAt).putLong(entryAt + 32, image.length);
    int i = 0;
    for (Map.Entry<String, String> e : strings.entrySet()) {
      int at = mapAt + stride * i++;
      b.putLong(at, keys.get(e.getKey())).putLong(at + 8, values.get(e.getKey()));
      if (version >= 2) {
        b.putLong(at + 16, e.getValue().getBytes(StandardCharsets.UTF_8).length);
      }
    }
    b.put(stringsAt, table.toByteArray());
    b.put(imageAt, image);
    return b.array();
  }

  private static int align8(int n) {
    return (n + 7) & ~7;
  }
}
