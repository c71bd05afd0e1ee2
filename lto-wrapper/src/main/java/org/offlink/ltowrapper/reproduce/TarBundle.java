package org.offlink.ltowrapper.reproduce;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.offlink.runtime.AtomicFiles;
import org.offlink.runtime.LinkScope;

/**
 * A deterministic tar written with Commons Compress: entries sorted by name, every entry owned by
 * 0:0 with empty owner names, modification time 0 (the epoch), mode 0644 or 0755; long and
 * non-ASCII names in POSIX (pax) headers. The same entries always give the same bytes. The file is
 * written atomically ({@link AtomicFiles}: a temporary beside it, then renamed).
 */
public final class TarBundle {
  /**
   * One entry's contents, in memory or a file's (streamed, {@code size} bytes), and whether it is
   * executable.
   */
  public record Content(byte[] bytes, Path file, long size, boolean executable) {
    public static Content of(byte[] bytes) {
      return new Content(bytes, null, bytes.length, false);
    }

    public static Content script(byte[] bytes) {
      return new Content(bytes, null, bytes.length, true);
    }

    static Content file(Path file, long size) {
      return new Content(null, file, size, false);
    }
  }

  private static final FileTime EPOCH = FileTime.fromMillis(0);

  private final SortedMap<String, Content> entries = new TreeMap<>();

  /** Adds (or replaces) the entry {@code name}. */
  public TarBundle put(String name, Content content) {
    entries.put(name, content);
    return this;
  }

  /** Writes the tar to {@code target}. */
  public void write(LinkScope scope, Path target) throws IOException {
    AtomicFiles.write(scope, target, this::writeTo);
  }

  public void writeTo(OutputStream out) throws IOException {
    TarArchiveOutputStream tar = new TarArchiveOutputStream(out, "UTF-8");
    tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
    tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
    tar.setAddPaxHeadersForNonAsciiNames(true);
    for (Map.Entry<String, Content> e : entries.entrySet()) {
      Content c = e.getValue();
      TarArchiveEntry entry = new TarArchiveEntry(e.getKey());
      entry.setSize(c.size());
      entry.setMode(c.executable() ? 0100755 : 0100644);
      entry.setLastModifiedTime(EPOCH);
      entry.setUserId(0);
      entry.setGroupId(0);
      entry.setUserName("");
      entry.setGroupName("");
      tar.putArchiveEntry(entry);
      if (c.bytes() != null) {
        tar.write(c.bytes());
      } else {
        try (InputStream in = Files.newInputStream(c.file())) {
          in.transferTo(tar); // a file that grew since it was hashed fails here: one warning
        }
      }
      tar.closeArchiveEntry();
    }
    tar.finish();
  }
}
