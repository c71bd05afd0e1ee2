package org.offlink.fuzz;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.offlink.server.protocol.Frame;
import org.offlink.server.protocol.FrameReader;
import org.offlink.server.protocol.FrameType;
import org.offlink.server.protocol.LinkRequest;
import org.offlink.server.protocol.Protocol;
import org.offlink.server.protocol.ProtocolException;
import org.offlink.server.protocol.RequestDecoder;
import org.offlink.server.protocol.RequestEncoder;

/**
 * The link server's request decoder and frame reader, the first code that reads a client's bytes.
 * The input is read twice: as a request payload, and as a stream of frames whose requests are
 * decoded. Anything but a clean {@link ProtocolException} is a crash; a request that decodes must
 * keep the protocol's promises (an absolute folder, no NUL, at least argv[0]) and survive being
 * written and read again unchanged.
 */
public final class RequestDecoderFuzzer {
  private RequestDecoderFuzzer() {}

  /** Entry point for Jazzer's command line (scripts/fuzz.sh). */
  public static void fuzzerTestOneInput(byte[] data) throws IOException {
    for (Charset cs : new Charset[] {StandardCharsets.ISO_8859_1, StandardCharsets.UTF_8}) {
      decode(data, cs);
    }
    FrameReader frames = new FrameReader(new ByteArrayInputStream(data));
    try {
      for (Optional<Frame> f; (f = frames.next(Protocol.MAX_REQUEST)).isPresent(); ) {
        if (f.get().type() == FrameType.REQUEST) {
          decode(f.get().payload(), StandardCharsets.ISO_8859_1);
        }
      }
    } catch (ProtocolException e) {
      // rejected cleanly
    }
  }

  private static void decode(byte[] payload, Charset cs) throws ProtocolException {
    LinkRequest r;
    try {
      r = RequestDecoder.decode(payload, cs);
    } catch (ProtocolException e) {
      return; // rejected cleanly
    }
    if (!r.workingDirectory().startsWith("/") || r.argv().isEmpty()) {
      throw new IllegalStateException("decoded a request that breaks the protocol: " + r);
    }
    for (String s : r.argv()) {
      if (s.indexOf('\0') >= 0) {
        throw new IllegalStateException("NUL in an argument: " + r);
      }
    }
    LinkRequest again = RequestDecoder.decode(RequestEncoder.encode(r, cs), cs);
    if (!again.equals(r)) {
      throw new IllegalStateException("round trip changed " + r + " into " + again);
    }
  }
}
