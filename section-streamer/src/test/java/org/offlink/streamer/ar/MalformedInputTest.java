package org.offlink.streamer.ar;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.lto.HostOffloadTable;
import org.offlink.streamer.lto.LtoCompression;
import org.offlink.streamer.lto.LtoHeaderReader;
import org.offlink.streamer.lto.LtoPayload;
import org.offlink.streamer.opts.OptsSection;

/** Every bad input of the ar, lto and opts readers: one clean line naming the file. */
class MalformedInputTest {
  @TempDir static Path dir;

  /** Writes a bad file and feeds it to a reader. */
  @FunctionalInterface
  interface Case {
    void run(Path file) throws Exception;
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        bad("bad_ar_magic", f -> readAr(f, ascii("!<arhc>\nrest"))),
        bad("bad_ar_header", f -> readAr(f, ar(header("x.o/", 2).replace("`\n", "XX"), "ab"))),
        bad(
            "bad_ar_size_not_decimal",
            f -> readAr(f, ar(header("x.o/", 2).replace("2 ", "z "), "ab"))),
        bad("bad_ar_header_truncated", f -> readAr(f, ascii("!<arch>\nx.o/     0    "))),
        bad("bad_member_size_past_end", f -> readAr(f, ar(header("x.o/", 1000), "only a little"))),
        bad("bad_thin_member_missing", f -> readAr(f, thin("gone.o"))),
        bad(
            "bad_thin_member_name_with_nul",
            f -> readAr(f, ascii("!<thin>\n" + header("a\0b.o/", 10)))),
        bad(
            "bad_thin_bsd_symbol_table_past_end",
            f -> readAr(f, ascii("!<thin>\n" + header("__.SYMDEF", 13) + "\0\0\0EF"))),
        bad("bad_long_name_without_table", f -> readAr(f, ar(header("/5", 2), "ab"))),
        bad("bad_bsd_name_length", f -> readAr(f, ar(header("#1/99", 4), "abcd"))),
        bad("bad_symbol_index_count", f -> readAr(f, ar(header("/", 8), "\0\0\u0003\u00e8abcd"))),
        bad(
            "bad_zstd_payload",
            f -> LtoPayload.decompress(f, 0x40, ascii("not zstd"), LtoCompression.ZSTD)),
        bad(
            "bad_zstd_corrupt_frame",
            f ->
                LtoPayload.decompress(
                    f, 0x40, zstdMagicThen("garbage!garbage!"), LtoCompression.ZSTD)),
        bad(
            "bad_zlib_payload",
            f -> LtoPayload.decompress(f, 0x40, ascii("no zlib"), LtoCompression.ZLIB)),
        bad(
            "bad_zlib_corrupt_stream",
            f ->
                LtoPayload.decompress(
                    f, 0, new byte[] {0x78, (byte) 0x9c, 1, 2}, LtoCompression.ZLIB)),
        bad("bad_lto_header_short", f -> LtoHeaderReader.read(f, 0x10, new byte[] {12, 0, 0, 0})),
        bad("bad_ofldlist_count", f -> readList(f, "three\na.o\n")),
        bad("bad_ofldlist_short", f -> readList(f, "3\na.o\nb.o\n")),
        bad(
            "bad_opts_unterminated_quote",
            f -> OptsSection.parse(f, 0x20, ascii("'-fopenmp' '-O2\0"))),
        bad(
            "bad_offload_funcs_partial_entry",
            f -> HostOffloadTable.FUNCS.entryCount(f, 12, true)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void failsWithOneCleanLineNamingTheFile(String name, Case c) {
    Path file = dir.resolve(name + ".in");
    MalformedObjectException e = assertThrows(MalformedObjectException.class, () -> c.run(file));
    String msg = e.getMessage();
    assertTrue(msg.startsWith(file.toString()), msg);
    assertFalse(msg.contains("\n"), msg);
    assertTrue(msg.contains("expected") && msg.contains("found"), msg);
  }

  private static Arguments bad(String name, Case c) {
    return Arguments.of(name, c);
  }

  private static void readAr(Path file, byte[] content) throws Exception {
    Files.write(file, content);
    ArchiveReader.read(file);
  }

  private static void readList(Path file, String content) throws Exception {
    Files.writeString(file, content);
    OffloadObjectListReader.read(file);
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  private static String header(String name, long size) {
    return String.format("%-16s%-12s%-6s%-6s%-8s%-10d`\n", name, "0", "0", "0", "644", size);
  }

  private static byte[] ar(String header, String data) {
    return ascii("!<arch>\n" + header + data);
  }

  private static byte[] thin(String missing) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(ascii("!<thin>\n"));
    ArFixtures.member(out, "//", ascii(missing + "/\n"));
    out.writeBytes(ascii(header("/0", 10)));
    return out.toByteArray();
  }

  private static byte[] zstdMagicThen(String rest) {
    byte[] r = ascii(rest);
    byte[] b = new byte[4 + r.length];
    b[0] = 0x28;
    b[1] = (byte) 0xb5;
    b[2] = 0x2f;
    b[3] = (byte) 0xfd;
    System.arraycopy(r, 0, b, 4, r.length);
    return b;
  }
}
