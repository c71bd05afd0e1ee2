package org.offlink.bridge.nvptx;

import java.nio.file.Path;

/**
 * A PTX library archive ({@code libc.a}, {@code libgomp.a} of the nvptx accel compiler) read as
 * nvptx-tools 0.20220610's {@code nvptx-none-ld} reads it: after the {@code !<arch>} magic, a first
 * member whose name starts with '/' or ' ' (the symbol table) is skipped by its size alone; every
 * other member, in order, is PTX text of its header's decimal size, padded to an even offset. What
 * that program would reject (no magic, no member, a size of 0 or past the end, a short member) and
 * a member with a NUL byte (it copies members as C strings) is {@link NvptxLinker.Unsupported}.
 *
 * @param file where it was read from
 * @param bytes the whole archive
 * @param starts each member's offset in {@code bytes}
 * @param lengths each member's size
 * @param markers each member's symbol markers
 */
record PtxArchive(Path file, byte[] bytes, int[] starts, int[] lengths, PtxMarkers[] markers) {
  private static final byte[] MAGIC = {'!', '<', 'a', 'r', 'c', 'h', '>', '\n'};
  private static final int HEADER = 60;

  /** The archive {@code bytes}, read from {@code file} as nvptx-tools 0.20220610 reads it. */
  static PtxArchive parse(Path file, byte[] bytes) throws NvptxLinker.Unsupported {
    return parse(file, bytes, NvptxLdVersion.TOOLS_2022);
  }

  /** The archive {@code bytes}, read from {@code file} as {@code version} reads it. */
  static PtxArchive parse(Path file, byte[] bytes, NvptxLdVersion version)
      throws NvptxLinker.Unsupported {
    long flen = bytes.length;
    if (!isArchive(bytes)) {
      throw invalid(file);
    }
    if (flen == MAGIC.length && version.emptyArchiveValid()) {
      return new PtxArchive(file, bytes, new int[0], new int[0], new PtxMarkers[0]);
    }
    if (flen < MAGIC.length + HEADER) {
      throw invalid(file);
    }
    long off = MAGIC.length;
    if (bytes[MAGIC.length] == '/' || bytes[MAGIC.length] == ' ') {
      long l = size(bytes, MAGIC.length);
      off += HEADER;
      if (l < 0 || off + l > flen) {
        throw invalid(file);
      }
      off += l;
    }
    IntList starts = new IntList();
    IntList lengths = new IntList();
    java.util.List<PtxMarkers> markers = new java.util.ArrayList<>();
    while (off != flen) {
      if (off + HEADER > flen) {
        throw unreadable(file);
      }
      long l = size(bytes, (int) off);
      off += HEADER;
      long readLen = l + (l & 1);
      if (l <= 0 || l > flen || off + readLen > flen) {
        throw unreadable(file);
      }
      int start = (int) off;
      int len = (int) l;
      if (hasNul(bytes, start, len)) {
        throw new NvptxLinker.Unsupported("a NUL byte in a member of " + file);
      }
      PtxMarkers m = version.scan(bytes, start, start + len);
      starts.add(start);
      lengths.add(len);
      markers.add(m);
      off += readLen;
    }
    return new PtxArchive(
        file, bytes, starts.toArray(), lengths.toArray(), markers.toArray(new PtxMarkers[0]));
  }

  /** Whether {@code bytes} begin with the archive magic ({@code !<arch>} and a newline). */
  static boolean isArchive(byte[] bytes) {
    if (bytes.length < MAGIC.length) {
      return false;
    }
    for (int k = 0; k < MAGIC.length; k++) {
      if (bytes[k] != MAGIC[k]) {
        return false;
      }
    }
    return true;
  }

  /** The number of members. */
  int size() {
    return starts.length;
  }

  /**
   * {@code atol} of a member header's size field (decimal after blanks; it ends at a non-digit).
   */
  private static long size(byte[] ar, int header) {
    int i = header + 48;
    int end = header + 58;
    while (i < end && (ar[i] == ' ' || ar[i] == '\t')) {
      i++;
    }
    boolean negative = false;
    if (i < end && (ar[i] == '-' || ar[i] == '+')) {
      negative = ar[i] == '-';
      i++;
    }
    long v = 0;
    while (i < end && ar[i] >= '0' && ar[i] <= '9') {
      v = v * 10 + (ar[i] - '0');
      i++;
    }
    return negative ? -v : v;
  }

  /** Whether {@code b[start, start + len)} holds a NUL byte. */
  static boolean hasNul(byte[] b, int start, int len) {
    for (int k = start; k < start + len; k++) {
      if (b[k] == 0) {
        return true;
      }
    }
    return false;
  }

  private static NvptxLinker.Unsupported invalid(Path file) {
    return new NvptxLinker.Unsupported(file + " is not a valid archive");
  }

  private static NvptxLinker.Unsupported unreadable(Path file) {
    return new NvptxLinker.Unsupported("error reading from archive " + file);
  }

  /** A growable int array. */
  private static final class IntList {
    private int[] a = new int[64];
    private int n;

    void add(int v) {
      if (n == a.length) {
        a = java.util.Arrays.copyOf(a, n * 2);
      }
      a[n++] = v;
    }

    int[] toArray() {
      return java.util.Arrays.copyOf(a, n);
    }
  }
}
