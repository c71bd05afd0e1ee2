package org.offlink.streamer.ar;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.offlink.runtime.FileKinds;
import org.offlink.runtime.NativeCharset;
import org.offlink.streamer.MalformedObjectException;

/**
 * Reads the table of contents of GNU, BSD and thin {@code ar} archives without copying member data:
 * each 60-byte header is read in place and the data are skipped by offset.
 *
 * <pre>
 * offset  size  content
 *      0     8  "!&lt;arch&gt;\n" (GNU, BSD) or "!&lt;thin&gt;\n" (thin)
 *      8    60  member header (see {@link ArHeader})
 *     68  size  member data (absent for ordinary members of a thin archive)
 *      …     1  "\n" padding when the data end at an odd offset
 * </pre>
 *
 * <p>Commons Compress's {@code ArArchiveInputStream} is not used for this: it rejects thin
 * archives, does not report data offsets, and reads skipped member data through a buffer. It is
 * used by the tests as an independent oracle for member names and sizes.
 */
public final class ArchiveReader {
  private static final byte[] ARCH_MAGIC = "!<arch>\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] THIN_MAGIC = "!<thin>\n".getBytes(StandardCharsets.US_ASCII);
  private static final String BSD_LONG_NAME = "#1/";
  private static final String BSD_SYMDEF = "__.SYMDEF";

  private final Path file;
  private final FileChannel channel;
  private final long end;
  private final boolean thin;
  private final List<ArchiveMember> members = new ArrayList<>();
  private List<ArchiveSymbol> symbols = List.of();
  private byte[] longNames;
  private boolean bsd;

  private ArchiveReader(Path file, FileChannel channel, boolean thin) throws IOException {
    this.file = file;
    this.channel = channel;
    this.end = channel.size();
    this.thin = thin;
  }

  /** Whether {@code file} starts with an archive magic ({@code !<arch>} or {@code !<thin>}). */
  public static boolean isArchive(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      return magicOf(file, ch) != null;
    }
  }

  /** Reads the members and the symbol index of {@code file}. */
  public static Archive read(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      byte[] magic = magicOf(file, ch);
      if (magic == null) {
        byte[] found = new byte[(int) Math.min(8, ch.size())];
        readFully(file, ch, ByteBuffer.wrap(found), 0);
        throw new MalformedObjectException(
            file,
            0,
            "expected archive magic '!<arch>\\n' or '!<thin>\\n', found "
                + ArHeader.quote(found, 0, found.length));
      }
      ArchiveReader reader = new ArchiveReader(file, ch, magic == THIN_MAGIC);
      reader.readMembers();
      ArchiveKind kind =
          reader.thin ? ArchiveKind.THIN : reader.bsd ? ArchiveKind.BSD : ArchiveKind.GNU;
      return new Archive(file, kind, reader.members, reader.symbols);
    }
  }

  private static byte[] magicOf(Path file, FileChannel ch) throws IOException {
    if (ch.size() < 8) {
      return null;
    }
    byte[] m = new byte[8];
    readFully(file, ch, ByteBuffer.wrap(m), 0);
    return Arrays.equals(m, ARCH_MAGIC)
        ? ARCH_MAGIC
        : Arrays.equals(m, THIN_MAGIC) ? THIN_MAGIC : null;
  }

  private void readMembers() throws IOException {
    long pos = 8;
    byte[] h = new byte[ArHeader.SIZE];
    while (pos < end) {
      if (end - pos < ArHeader.SIZE) {
        throw new MalformedObjectException(
            file, pos, "expected a 60-byte ar member header, found " + (end - pos) + " bytes");
      }
      readFully(file, channel, ByteBuffer.wrap(h), pos);
      pos = readMember(pos, ArHeader.parse(file, pos, h));
    }
  }

  /** Handles the member whose header is at {@code pos}; returns the next header's offset. */
  private long readMember(long pos, ArHeader header) throws IOException {
    long dataAt = pos + ArHeader.SIZE;
    long size = header.size();
    String name = header.rawName();
    boolean special = name.equals("/") || name.equals("/SYM64/") || name.equals("//");
    boolean external = thin && !special;
    if (!external) {
      requireInFile(pos, name, dataAt, size);
    }
    if (name.startsWith(BSD_LONG_NAME)) {
      bsd = true;
      int nameLength = bsdNameLength(pos, name, size);
      name = stripNuls(new String(read(dataAt, nameLength), NativeCharset.CHARSET));
      dataAt += nameLength;
      size -= nameLength;
    }
    if (name.equals("/") || name.equals("/SYM64/")) {
      symbols =
          new SymbolIndexReader(file, dataAt).readGnu(read(dataAt, size), name.equals("/") ? 4 : 8);
    } else if (name.equals("//")) {
      longNames = read(dataAt, size);
    } else if (name.startsWith(BSD_SYMDEF)) {
      bsd = true;
      symbols =
          new SymbolIndexReader(file, dataAt)
              .readBsd(read(dataAt, size), name.startsWith(BSD_SYMDEF + "_64") ? 8 : 4);
    } else {
      addMember(pos, memberName(pos, name), dataAt, size, external);
    }
    long next = external ? dataAt : pos + ArHeader.SIZE + header.size();
    return (next & 1) != 0 && !external ? next + 1 : next;
  }

  private void addMember(long pos, String name, long dataAt, long size, boolean external)
      throws MalformedObjectException {
    Optional<Path> externalFile = Optional.empty();
    long offset = dataAt;
    if (external) {
      // Like BFD, resolve against the archive's directory without normalising, so the path
      // matches what ld hands to the LTO plugin ("sub/../x.o").
      if (!FileKinds.isValidName(name)) {
        throw new MalformedObjectException(
            file, pos, "expected a thin archive member file name, found one with a NUL byte");
      }
      Path parent = file.getParent();
      Path resolved = parent == null ? Path.of(name) : parent.resolve(name);
      if (!Files.isRegularFile(resolved)) {
        throw new MalformedObjectException(
            file,
            pos,
            "expected thin archive member " + resolved + ", found " + FileKinds.describe(resolved));
      }
      externalFile = Optional.of(resolved);
      offset = 0;
    }
    members.add(new ArchiveMember(name, offset, size, externalFile, pos));
  }

  private String memberName(long pos, String raw) throws MalformedObjectException {
    if (raw.length() > 1
        && raw.charAt(0) == '/'
        && raw.chars().skip(1).allMatch(Character::isDigit)) {
      return longName(pos, Long.parseLong(raw.substring(1)));
    }
    // GNU terminates short names with '/', BSD does not (and BSD names may not contain '/').
    return raw.endsWith("/") ? raw.substring(0, raw.length() - 1) : raw;
  }

  private String longName(long pos, long index) throws MalformedObjectException {
    if (longNames == null || index >= longNames.length) {
      throw new MalformedObjectException(
          file,
          pos,
          "expected a long name at offset "
              + index
              + " of the '//' table, found "
              + (longNames == null
                  ? "no '//' table"
                  : "a table of " + longNames.length + " bytes"));
    }
    int from = (int) index;
    int to = from;
    while (to < longNames.length && longNames[to] != '\n') {
      to++;
    }
    if (to > from && longNames[to - 1] == '/') {
      to--;
    }
    return new String(longNames, from, to - from, NativeCharset.CHARSET);
  }

  private int bsdNameLength(long pos, String name, long size) throws MalformedObjectException {
    String digits = name.substring(BSD_LONG_NAME.length());
    if (digits.isEmpty()
        || !digits.chars().allMatch(Character::isDigit)
        || Long.parseLong(digits) > size) {
      throw new MalformedObjectException(
          file,
          pos,
          "expected '#1/<length>' with a length within the member's "
              + size
              + " bytes, found '"
              + name
              + "'");
    }
    return Integer.parseInt(digits);
  }

  private void requireInFile(long pos, String name, long dataAt, long size)
      throws MalformedObjectException {
    if (size > end - dataAt) {
      throw new MalformedObjectException(
          file,
          pos,
          "expected "
              + size
              + " bytes of data for member '"
              + name
              + "', found "
              + (end - dataAt)
              + " bytes before the end of the file");
    }
  }

  private byte[] read(long at, long size) throws IOException {
    if (size > Integer.MAX_VALUE - 8) {
      throw new MalformedObjectException(file, at, "expected a table under 2 GiB, found " + size);
    }
    byte[] b = new byte[(int) size];
    readFully(file, channel, ByteBuffer.wrap(b), at);
    return b;
  }

  private static void readFully(Path file, FileChannel ch, ByteBuffer buf, long at)
      throws IOException {
    long p = at;
    while (buf.hasRemaining()) {
      int n = ch.read(buf, p);
      if (n < 0) {
        // E.g. a symbol table in a thin archive, whose sizes are not checked against the file.
        throw new MalformedObjectException(
            file, p, "expected " + buf.remaining() + " more bytes, found the end of the file");
      }
      p += n;
    }
  }

  private static String stripNuls(String s) {
    int e = s.length();
    while (e > 0 && s.charAt(e - 1) == '\0') {
      e--;
    }
    return s.substring(0, e);
  }
}
