package org.offlink.server.protocol;

import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes a {@link FrameType#REQUEST} payload, treating every byte as hostile: every length is
 * checked against what is left before anything is allocated, and anything the C client never sends
 * is refused rather than repaired.
 *
 * <pre>
 * offset  size   field
 * 0       4      magic "OFLK"
 * 4       2      protocol version ({@link Protocol#VERSION})
 * 6       bytes  identity text
 * .       1      tool ({@link ToolKind} code)
 * .       4      client pid, 1 .. 2^31-1
 * .       2      umask, 0 .. 0777
 * .       1      flags, 0 (reserved)
 * .       4      argc, at least 1, then argc x bytes
 * .       4      envc, then envc x bytes "NAME=VALUE" (NAME not empty, no NAME twice)
 * .       bytes  working folder, starting with '/'
 * </pre>
 *
 * <p>Integers are big-endian; "bytes" is a u32 length and that many bytes, none of them NUL (they
 * were C strings). Nothing may follow. Strings are decoded with the charset the JVM decodes its own
 * argv and environment with ({@code NativeCharset}), so that a link sees the same strings here as
 * in a JVM of its own.
 */
public final class RequestDecoder {
  private final byte[] bytes;
  private final Charset charset;
  private int at;

  private RequestDecoder(byte[] bytes, Charset charset) {
    this.bytes = bytes;
    this.charset = charset;
  }

  /** The request in {@code payload}, or a {@link ProtocolException} naming what is wrong. */
  public static LinkRequest decode(byte[] payload, Charset charset) throws ProtocolException {
    return new RequestDecoder(payload, charset).request();
  }

  private LinkRequest request() throws ProtocolException {
    String magic = new String(take(4, "the magic"), java.nio.charset.StandardCharsets.ISO_8859_1);
    if (!magic.equals(Protocol.REQUEST_MAGIC)) {
      throw error("magic '" + printable(magic) + "', expected '" + Protocol.REQUEST_MAGIC + "'", 0);
    }
    int version = u16("the protocol version");
    if (version != Protocol.VERSION) {
      throw error("protocol version " + version + ", expected " + Protocol.VERSION, 4);
    }
    String identity = string("the identity");
    int toolAt = at;
    int code = u8("the tool");
    ToolKind tool = ToolKind.of(code).orElseThrow(() -> error("unknown tool code " + code, toolAt));
    long pid = u32("the client pid");
    if (pid < 1 || pid > Integer.MAX_VALUE) {
      throw error("client pid " + pid, at - 4);
    }
    int umask = u16("the umask");
    if (umask > 0777) {
      throw error("umask 0" + Integer.toOctalString(umask) + ", expected at most 0777", at - 2);
    }
    int flags = u8("the flags");
    if (flags != 0) {
      throw error("flags " + flags + ", expected 0", at - 1);
    }
    List<String> argv = argv();
    Map<String, String> env = environment();
    int cwdAt = at;
    String cwd = string("the working folder");
    if (!cwd.startsWith("/")) {
      throw error("a working folder that is not absolute", cwdAt);
    }
    if (at != bytes.length) {
      throw error((bytes.length - at) + " bytes after the request", at);
    }
    return new LinkRequest(identity, tool, pid, umask, argv, env, cwd);
  }

  private List<String> argv() throws ProtocolException {
    int countAt = at;
    long argc = count("argc");
    if (argc < 1) {
      throw error("argc 0, expected at least 1", countAt);
    }
    List<String> argv = new ArrayList<>();
    for (long i = 0; i < argc; i++) {
      argv.add(string("argv[" + i + "]"));
    }
    return argv;
  }

  private Map<String, String> environment() throws ProtocolException {
    long envc = count("envc");
    Map<String, String> env = new HashMap<>();
    for (long i = 0; i < envc; i++) {
      int entryAt = at;
      String entry = string("environment entry " + i);
      int eq = entry.indexOf('=');
      if (eq <= 0) {
        throw error("environment entry " + i + " is not NAME=VALUE", entryAt);
      }
      String name = entry.substring(0, eq);
      if (env.putIfAbsent(name, entry.substring(eq + 1)) != null) {
        throw error("environment variable " + printable(name) + " twice", entryAt);
      }
    }
    return env;
  }

  /** A count of length-prefixed items: each takes at least 4 bytes, so more cannot fit. */
  private long count(String what) throws ProtocolException {
    long n = u32(what);
    if (n > (bytes.length - at) / 4) {
      throw error(what + " " + n + " with " + (bytes.length - at) + " bytes left", at - 4);
    }
    return n;
  }

  private String string(String what) throws ProtocolException {
    int lengthAt = at;
    long n = u32("the length of " + what);
    if (n > bytes.length - at) {
      throw error(
          what + " of " + n + " bytes with " + (bytes.length - at) + " bytes left", lengthAt);
    }
    int start = at;
    byte[] b = take((int) n, what);
    for (int i = 0; i < b.length; i++) {
      if (b[i] == 0) {
        throw error(what + " holds a NUL byte", start + i);
      }
    }
    return new String(b, charset);
  }

  private int u8(String what) throws ProtocolException {
    return take(1, what)[0] & 0xff;
  }

  private int u16(String what) throws ProtocolException {
    byte[] b = take(2, what);
    return (b[0] & 0xff) << 8 | (b[1] & 0xff);
  }

  private long u32(String what) throws ProtocolException {
    byte[] b = take(4, what);
    return (b[0] & 0xffL) << 24 | (b[1] & 0xff) << 16 | (b[2] & 0xff) << 8 | (b[3] & 0xff);
  }

  private byte[] take(int n, String what) throws ProtocolException {
    if (n > bytes.length - at) {
      throw error(
          "the request ends inside " + what + " (" + (bytes.length - at) + " of " + n + " bytes)",
          at);
    }
    byte[] b = java.util.Arrays.copyOfRange(bytes, at, at + n);
    at += n;
    return b;
  }

  private static ProtocolException error(String message, int offset) {
    return new ProtocolException("bad request: " + message, offset);
  }

  private static String printable(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length() && i < 40; i++) {
      char c = s.charAt(i);
      b.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\x%02x", (int) c));
    }
    return b.toString();
  }
}
