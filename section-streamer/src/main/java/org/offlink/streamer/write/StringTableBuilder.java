package org.offlink.streamer.write;

import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.Map;
import org.offlink.runtime.NativeCharset;

/**
 * An ELF string table under construction: starts with the empty string at offset 0, each distinct
 * name stored once, NUL-terminated, in first-use order (so the bytes are deterministic).
 */
final class StringTableBuilder {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final Map<String, Integer> offsets = new HashMap<>();

  StringTableBuilder() {
    bytes.write(0);
    offsets.put("", 0);
  }

  /** The offset of {@code name}, adding it on first use. */
  int add(String name) {
    Integer known = offsets.get(name);
    if (known != null) {
      return known;
    }
    int offset = bytes.size();
    bytes.writeBytes(name.getBytes(NativeCharset.CHARSET));
    bytes.write(0);
    offsets.put(name, offset);
    return offset;
  }

  byte[] toByteArray() {
    return bytes.toByteArray();
  }
}
