package org.offlink.server.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RequestDecoderTest {
  private static final LinkRequest GOOD =
      new LinkRequest(
          "offlink-link-server 1\nclient x\n",
          ToolKind.LTO_WRAPPER,
          4242,
          022,
          List.of("/usr/lib/gcc/lto-wrapper", "@/tmp/ccX.args", "caf\u00e9"),
          Map.of("PATH", "/usr/bin:/bin", "EMPTY", "", "EQ", "a=b"),
          "/home/u/build");

  @Test
  void decodesWhatTheEncoderWrites() throws ProtocolException {
    byte[] bytes = RequestEncoder.encode(GOOD, StandardCharsets.ISO_8859_1);
    assertEquals(GOOD, RequestDecoder.decode(bytes, StandardCharsets.ISO_8859_1));
  }

  @Test
  void everyByteRoundTripsInIso88591() throws ProtocolException {
    // The launchers run the JVM in a byte-transparent locale: a Latin-1 path that is not UTF-8.
    byte[] path = {'/', 't', 'm', 'p', '/', (byte) 0xe9, (byte) 0xff, (byte) 0x80};
    String name = new String(path, StandardCharsets.ISO_8859_1);
    LinkRequest r =
        new LinkRequest("id", ToolKind.MKOFFLOAD_GCN, 1, 0, List.of(name), Map.of(), name);
    byte[] bytes = RequestEncoder.encode(r, StandardCharsets.ISO_8859_1);
    LinkRequest back = RequestDecoder.decode(bytes, StandardCharsets.ISO_8859_1);
    assertArrayEquals(path, back.workingDirectory().getBytes(StandardCharsets.ISO_8859_1));
    assertArrayEquals(path, back.argv().get(0).getBytes(StandardCharsets.ISO_8859_1));
  }

  /** Named malformed requests: each is refused with a message naming what is wrong. */
  static Stream<Arguments> malformed() {
    return Stream.of(
        bad("bad_empty", "ends inside the magic", b -> b.reset()),
        bad("bad_magic", "magic 'OFLX'", b -> patch(b, 3, 'X')),
        bad("bad_version", "protocol version 2, expected 1", b -> patch(b, 5, 2)),
        bad("bad_truncated", "ends inside argc (2 of 4 bytes)", b -> truncate(b, toolAt() + 10)),
        bad("bad_trailing_bytes", "1 bytes after the request", b -> b.write(0)),
        bad("bad_tool", "unknown tool code 9", b -> patch(b, toolAt(), 9)),
        bad("bad_pid_zero", "client pid 0", b -> patchU32(b, toolAt() + 1, 0)),
        bad("bad_umask", "umask 01000", b -> patchU16(b, toolAt() + 5, 01000)),
        bad("bad_flags", "flags 1, expected 0", b -> patch(b, toolAt() + 7, 1)),
        bad("bad_argc_zero", "argc 0", b -> rebuild(b, List.of(), GOOD.environment())),
        bad("bad_argc_huge", "argc 4294967295", b -> patchU32(b, toolAt() + 8, 0xffffffffL)),
        bad("bad_string_length", "with 1", b -> rebuildRaw(b, 0x7fffffff)),
        bad("bad_nul_in_arg", "holds a NUL byte", b -> rebuild(b, List.of("a\0b"), Map.of())),
        bad("bad_env_no_equals", "not NAME=VALUE", b -> rebuildEnv(b, "PATH")),
        bad("bad_env_empty_name", "not NAME=VALUE", b -> rebuildEnv(b, "=x")),
        bad("bad_env_twice", "variable A twice", b -> rebuildEnv(b, "A=1", "A=2")),
        bad("bad_cwd_relative", "not absolute", b -> rebuildCwd(b, "build")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void refusesMalformedRequests(String name, String expected, byte[] bytes) {
    ProtocolException e =
        assertThrows(
            ProtocolException.class,
            () -> RequestDecoder.decode(bytes, StandardCharsets.ISO_8859_1));
    assertTrue(
        e.getMessage().startsWith("bad request: ") && e.getMessage().contains(expected),
        name + ": " + e.getMessage());
  }

  private static Arguments bad(String name, String expected, Consumer<ByteArrayOutputStream> edit) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.writeBytes(RequestEncoder.encode(GOOD, StandardCharsets.ISO_8859_1));
    edit.accept(b);
    return Arguments.of(name, expected, b.toByteArray());
  }

  private static int toolAt() {
    return 4 + 2 + 4 + GOOD.identity().length();
  }

  private static void patch(ByteArrayOutputStream b, int at, int value) {
    byte[] bytes = b.toByteArray();
    bytes[at] = (byte) value;
    b.reset();
    b.writeBytes(bytes);
  }

  private static void patchU16(ByteArrayOutputStream b, int at, int value) {
    patch(b, at, value >>> 8);
    patch(b, at + 1, value);
  }

  private static void patchU32(ByteArrayOutputStream b, int at, long value) {
    for (int i = 0; i < 4; i++) {
      patch(b, at + i, (int) (value >>> (24 - 8 * i)));
    }
  }

  private static void truncate(ByteArrayOutputStream b, int length) {
    byte[] bytes = Arrays.copyOf(b.toByteArray(), length);
    b.reset();
    b.writeBytes(bytes);
  }

  private static void rebuild(ByteArrayOutputStream b, List<String> argv, Map<String, String> env) {
    b.reset();
    b.writeBytes(
        encodeRaw(
            argv,
            env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList(),
            GOOD.workingDirectory()));
  }

  private static void rebuildEnv(ByteArrayOutputStream b, String... entries) {
    b.reset();
    b.writeBytes(encodeRaw(GOOD.argv(), List.of(entries), GOOD.workingDirectory()));
  }

  private static void rebuildCwd(ByteArrayOutputStream b, String cwd) {
    b.reset();
    b.writeBytes(encodeRaw(GOOD.argv(), List.of(), cwd));
  }

  /** One argument whose length field says {@code length} while one byte follows. */
  private static void rebuildRaw(ByteArrayOutputStream b, long length) {
    byte[] head = Arrays.copyOf(b.toByteArray(), toolAt() + 8);
    b.reset();
    b.writeBytes(head);
    u32(b, 1);
    u32(b, length);
    b.write('x');
  }

  /** A request as the C client writes it, with any argv (even none) and raw environment entries. */
  private static byte[] encodeRaw(List<String> argv, List<String> env, String cwd) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.writeBytes(
        Arrays.copyOf(RequestEncoder.encode(GOOD, StandardCharsets.ISO_8859_1), toolAt() + 8));
    u32(b, argv.size());
    argv.forEach(a -> str(b, a));
    u32(b, env.size());
    env.forEach(e -> str(b, e));
    str(b, cwd);
    return b.toByteArray();
  }

  private static void str(ByteArrayOutputStream b, String s) {
    byte[] bytes = s.getBytes(StandardCharsets.ISO_8859_1);
    u32(b, bytes.length);
    b.writeBytes(bytes);
  }

  private static void u32(ByteArrayOutputStream b, long v) {
    b.write((int) (v >>> 24));
    b.write((int) (v >>> 16));
    b.write((int) (v >>> 8));
    b.write((int) v);
  }

  @Test
  void keepsEnvironmentValuesWithEqualsSigns() throws ProtocolException {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("A", "x=y=z");
    LinkRequest r = new LinkRequest("i", ToolKind.LTO_WRAPPER, 1, 0, List.of("a"), env, "/");
    assertEquals(
        "x=y=z",
        RequestDecoder.decode(
                RequestEncoder.encode(r, StandardCharsets.UTF_8), StandardCharsets.UTF_8)
            .environment()
            .get("A"));
  }
}
