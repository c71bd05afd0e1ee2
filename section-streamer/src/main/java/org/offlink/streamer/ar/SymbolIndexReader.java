package org.offlink.streamer.ar;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.offlink.runtime.NativeCharset;
import org.offlink.streamer.MalformedObjectException;

/**
 * Decodes archive symbol indexes. Offsets in every format point at member headers.
 *
 * <pre>
 * GNU "/"        u32be count N | N x u32be member offset | N NUL-terminated names
 * GNU "/SYM64/"  u64be count N | N x u64be member offset | N NUL-terminated names
 * BSD __.SYMDEF  u32le ranlib bytes R | R/8 x {u32le name offset, u32le member offset}
 *                | u32le string bytes S | S bytes of NUL-terminated names
 * BSD __.SYMDEF_64  same with u64le fields (R/16 entries)
 * </pre>
 */
final class SymbolIndexReader {
  private final Path file;
  private final long offset;

  SymbolIndexReader(Path file, long offset) {
    this.file = file;
    this.offset = offset;
  }

  /** GNU index; {@code wordSize} 4 for "/" and 8 for "/SYM64/". */
  List<ArchiveSymbol> readGnu(byte[] data, int wordSize) throws MalformedObjectException {
    if (data.length < wordSize) {
      throw malformed("expected a symbol count, found " + data.length + " bytes of index");
    }
    ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.BIG_ENDIAN);
    long count = word(b, 0, wordSize);
    if (count < 0 || count > (data.length - wordSize) / wordSize) {
      throw malformed("expected a symbol count that fits the index, found " + count);
    }
    int n = (int) count;
    int strings = wordSize * (n + 1);
    List<ArchiveSymbol> symbols = new ArrayList<>(n);
    int p = strings;
    for (int i = 0; i < n; i++) {
      int nul = nul(data, p);
      String name = new String(data, p, nul - p, NativeCharset.CHARSET);
      symbols.add(new ArchiveSymbol(name, word(b, wordSize * (i + 1), wordSize)));
      p = nul + 1;
    }
    return symbols;
  }

  /** BSD index; {@code wordSize} 4 for "__.SYMDEF" and 8 for "__.SYMDEF_64". */
  List<ArchiveSymbol> readBsd(byte[] data, int wordSize) throws MalformedObjectException {
    ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
    long ranlibBytes = data.length >= wordSize ? word(b, 0, wordSize) : -1;
    if (ranlibBytes < 0 || ranlibBytes > data.length - 2L * wordSize) {
      // Old big-endian ranlib (PowerPC era); accept it when the little-endian reading is absurd.
      b.order(ByteOrder.BIG_ENDIAN);
      ranlibBytes = data.length >= wordSize ? word(b, 0, wordSize) : -1;
      if (ranlibBytes < 0 || ranlibBytes > data.length - 2L * wordSize) {
        throw malformed("expected a __.SYMDEF size that fits the index, found " + ranlibBytes);
      }
    }
    int entries = (int) (ranlibBytes / (2L * wordSize));
    int stringsAt = wordSize + (int) ranlibBytes + wordSize;
    List<ArchiveSymbol> symbols = new ArrayList<>(entries);
    for (int i = 0; i < entries; i++) {
      int at = wordSize + i * 2 * wordSize;
      long strx = word(b, at, wordSize);
      if (strx < 0 || stringsAt + strx >= data.length) {
        throw malformed("expected a symbol name offset inside __.SYMDEF, found " + strx);
      }
      int p = (int) (stringsAt + strx);
      String name = new String(data, p, nul(data, p) - p, NativeCharset.CHARSET);
      symbols.add(new ArchiveSymbol(name, word(b, at + wordSize, wordSize)));
    }
    return symbols;
  }

  private static long word(ByteBuffer b, int at, int wordSize) {
    return wordSize == 4 ? Integer.toUnsignedLong(b.getInt(at)) : b.getLong(at);
  }

  private int nul(byte[] data, int from) throws MalformedObjectException {
    for (int i = from; i < data.length; i++) {
      if (data[i] == 0) {
        return i;
      }
    }
    throw malformed("expected a NUL-terminated symbol name, found the end of the symbol index");
  }

  private MalformedObjectException malformed(String detail) {
    return new MalformedObjectException(file, offset, detail);
  }
}
