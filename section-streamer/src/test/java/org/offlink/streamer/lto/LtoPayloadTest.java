package org.offlink.streamer.lto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.testing.Toolchain;

class LtoPayloadTest {
  @TempDir Path dir;

  @Test
  void realObjectHeaderSaysZstdAndCompressedSectionsDecompress() throws Exception {
    Toolchain.write(dir, "x.c", Toolchain.offloadSource("foo"));
    Toolchain.stdout(dir, "gcc-12", "-fopenmp", "-foffload=amdgcn-amdhsa", "-c", "x.c");
    Path obj = dir.resolve("x.o");
    String readelf = Toolchain.stdout(dir, "readelf", "-SW", "x.o");
    LtoHeader header = null;
    int decompressed = 0;
    for (String name : LtoSectionNameTest.ltoSectionNames(readelf)) {
      LtoSectionName parsed = LtoSectionName.parse(name).orElseThrow();
      byte[] data = Toolchain.dumpSection(dir, obj, name);
      if (parsed.kind() == LtoSectionKind.LTO) {
        header = LtoHeaderReader.read(obj, 0, data);
        assertArrayEquals(data, LtoHeaderWriter.write(header));
      } else if (parsed.kind().isCompressed()) {
        byte[] plain = LtoPayload.decompress(obj, 0, data, LtoCompression.ZSTD);
        assertTrue(plain.length > 0, name);
        decompressed++;
      } else {
        assertFalse(
            data.length >= 4 && data[0] == 0x28 && data[1] == (byte) 0xb5, name + " is compressed");
      }
    }
    assertEquals(new LtoHeader(12, 0, false, LtoCompression.ZSTD), header);
    assertTrue(decompressed >= 5, "decompressed " + decompressed);
  }

  @Test
  void zlibStreamsDecompress() throws Exception {
    byte[] plain = "zlib payload ".repeat(100).getBytes(StandardCharsets.US_ASCII);
    Deflater d = new Deflater();
    d.setInput(plain);
    d.finish();
    byte[] buf = new byte[4096];
    int n = d.deflate(buf);
    d.end();
    byte[] compressed = java.util.Arrays.copyOf(buf, n);
    assertArrayEquals(
        plain, LtoPayload.decompress(Path.of("z.o"), 0, compressed, LtoCompression.ZLIB));
  }

  /** A section of a few KB that expands far past the limit: zstd and zlib bombs of zeros. */
  static byte[] bomb(LtoCompression kind, long plainBytes) throws IOException {
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    try (OutputStream out =
        kind == LtoCompression.ZSTD
            ? new ZstdOutputStream(sink, 19)
            : new DeflaterOutputStream(sink, new Deflater(9))) {
      byte[] zeros = new byte[1 << 20];
      for (long done = 0; done < plainBytes; done += zeros.length) {
        out.write(zeros);
      }
    }
    return sink.toByteArray();
  }

  @ParameterizedTest
  @EnumSource(
      value = LtoCompression.class,
      names = {"ZSTD", "ZLIB"})
  void aSectionExpandingPastTheLimitIsRejectedNamingIt(LtoCompression kind) throws Exception {
    byte[] section = bomb(kind, LtoPayload.MAX_DECOMPRESSED + (1L << 20));
    assertTrue(section.length < 1 << 20, "a small section: " + section.length);
    MalformedObjectException e =
        assertThrows(
            MalformedObjectException.class,
            () -> LtoPayload.decompress(Path.of("bomb.o"), 64, section, kind));
    assertTrue(e.getMessage().startsWith("bomb.o (at offset 0x40): "), e.getMessage());
    assertTrue(e.getMessage().contains(LtoPayload.MAX_DECOMPRESSED + " bytes decompressed"));
  }

  @Test
  void aSectionJustUnderTheLimitDecompresses() throws Exception {
    byte[] section = bomb(LtoCompression.ZSTD, 8L << 20);
    assertEquals(
        8 << 20, LtoPayload.decompress(Path.of("ok.o"), 0, section, LtoCompression.ZSTD).length);
  }

  @Test
  void headerFlagsKeepUnknownCompressions() throws Exception {
    byte[] raw = {12, 0, 0, 0, 1, 0, 7, 0};
    LtoHeader h = LtoHeaderReader.read(Path.of("h.o"), 0, raw);
    assertEquals(LtoCompression.UNKNOWN, h.compression());
    assertEquals(7, h.flags());
    assertTrue(h.slim());
  }

  @Test
  void hostOffloadTableEntryCounts() throws Exception {
    assertEquals(3, HostOffloadTable.FUNCS.entryCount(Path.of("x.o"), 24, true));
    assertEquals(3, HostOffloadTable.VARS.entryCount(Path.of("x.o"), 48, true));
    assertEquals(6, HostOffloadTable.VARS.entryCount(Path.of("x.o"), 48, false));
    assertEquals(
        HostOffloadTable.VARS, HostOffloadTable.ofSection(".gnu.offload_vars").orElseThrow());
  }
}
