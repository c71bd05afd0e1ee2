package org.offlink.ltowrapper.reproduce;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.offlink.streamer.io.AtomicFiles;

/**
 * A deterministic tar written with Commons Compress: entries sorted by name, every entry owned by
 * 0:0 with empty owner names, modification time 0 (the epoch), mode 0644 or 0755; long and
 * non-ASCII names in POSIX (pax) headers. The same entries always give the same bytes. The file is
 * written atomically ({@link AtomicFiles}: a temporary beside it, then renamed).
 */
final class TarBundle {
  /** One entry's contents and whether it is executable. */
  record Content(byte[] bytes, boolean executable) {
    static Content of(byte[] bytes) {
      return new Content(bytes, false);
    }

    static Content script(byte[] bytes) {
      return new Content(bytes, true);
    }
  }

  private static final FileTime EPOCH = FileTime.fromMillis(0);

  private final SortedMap<String, Content> entries = new TreeMap<>();

  /** Adds (or replaces) the entry {@code name}. */
  TarBundle put(String name, Content content) {
    entries.put(name, content);
    return this;
  }

  /** Writes the tar to {@code target}. */
  void write(Path target) throws IOException {
    AtomicFiles.write(target, this::writeTo);
  }

  void writeTo(OutputStream out) throws IOException {
    TarArchiveOutputStream tar = new TarArchiveOutputStream(out, "UTF-8");
    tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
    tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
    tar.setAddPaxHeadersForNonAsciiNames(true);
    for (Map.Entry<String, Content> e : entries.entrySet()) {
      Content c = e.getValue();
      TarArchiveEntry entry = new TarArchiveEntry(e.getKey());
      entry.setSize(c.bytes().length);
      entry.setMode(c.executable() ? 0100755 : 0100644);
      entry.setLastModifiedTime(EPOCH);
      entry.setUserId(0);
      entry.setGroupId(0);
      entry.setUserName("");
      entry.setGroupName("");
      tar.putArchiveEntry(entry);
      tar.write(c.bytes());
      tar.closeArchiveEntry();
    }
    tar.finish();
  }
}
