package org.offlink.streamer.elf;

import org.offlink.runtime.NativeCharset;
import org.offlink.streamer.MalformedObjectException;

/** A loaded ELF string table: NUL-terminated strings addressed by byte index. */
final class StringTable {
  private final ElfInput input;
  private final ElfSection section;
  private final byte[] data;

  StringTable(ElfInput input, ElfSection section, byte[] data) {
    this.input = input;
    this.section = section;
    this.data = data;
  }

  /** The string at {@code index}, checked to lie inside the table and be NUL-terminated. */
  String get(long index, String what) throws MalformedObjectException {
    if (index < 0 || index >= data.length) {
      if (index == 0 && data.length == 0) {
        return "";
      }
      throw input.malformed(
          section.offset(),
          String.format(
              "%s: expected a string index below %d in %s, found %d",
              what, data.length, describe(), index));
    }
    int end = (int) index;
    while (end < data.length && data[end] != 0) {
      end++;
    }
    if (end == data.length) {
      throw input.malformed(
          section.offset() + index,
          String.format(
              "%s: expected a NUL-terminated string at index %d in %s, found none",
              what, index, describe()));
    }
    return new String(data, (int) index, end - (int) index, NativeCharset.CHARSET);
  }

  private String describe() {
    return "string table [" + section.index() + "] " + section.name();
  }
}
