package org.offlink.server.protocol;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a {@link LinkRequest} in the layout {@link RequestDecoder} reads (the C client's {@code
 * request_build}), environment sorted by name: for Java clients and tests.
 */
public final class RequestEncoder {
  private RequestEncoder() {}

  /** The request's payload, strings encoded with {@code charset}. */
  public static byte[] encode(LinkRequest request, Charset charset) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(Protocol.REQUEST_MAGIC.getBytes(StandardCharsets.ISO_8859_1));
    u16(out, Protocol.VERSION);
    bytes(out, request.identity().getBytes(charset));
    out.write(request.tool().code());
    u32(out, request.clientPid());
    u16(out, request.umask());
    out.write(0);
    u32(out, request.argv().size());
    request.argv().forEach(a -> bytes(out, a.getBytes(charset)));
    u32(out, request.environment().size());
    for (Map.Entry<String, String> e : new TreeMap<>(request.environment()).entrySet()) {
      bytes(out, (e.getKey() + "=" + e.getValue()).getBytes(charset));
    }
    bytes(out, request.workingDirectory().getBytes(charset));
    return out.toByteArray();
  }

  private static void bytes(ByteArrayOutputStream out, byte[] b) {
    u32(out, b.length);
    out.writeBytes(b);
  }

  private static void u16(ByteArrayOutputStream out, int v) {
    out.write(v >>> 8);
    out.write(v);
  }

  private static void u32(ByteArrayOutputStream out, long v) {
    out.write((int) (v >>> 24));
    out.write((int) (v >>> 16));
    out.write((int) (v >>> 8));
    out.write((int) v);
  }
}
