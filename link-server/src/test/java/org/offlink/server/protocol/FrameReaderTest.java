package org.offlink.server.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FrameReaderTest {
  @Test
  void readsWhatTheWriterWritesAndEndsCleanly() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    FrameWriter w = new FrameWriter(out);
    w.write(FrameType.OUT, new byte[] {1, 2, 3});
    w.u32(FrameType.ACCEPTED, 0x01020304L);
    w.write(FrameType.WANT_STDIN, new byte[0]);
    FrameReader r = new FrameReader(new ByteArrayInputStream(out.toByteArray()));
    Frame a = r.next(Protocol.MAX_FRAME).orElseThrow();
    assertEquals(FrameType.OUT, a.type());
    assertArrayEquals(new byte[] {1, 2, 3}, a.payload());
    assertArrayEquals(new byte[] {1, 2, 3, 4}, r.next(Protocol.MAX_FRAME).orElseThrow().payload());
    assertEquals(0, r.next(Protocol.MAX_FRAME).orElseThrow().payload().length);
    assertEquals(Optional.empty(), r.next(Protocol.MAX_FRAME));
  }

  @Test
  void cutsDataIntoChunks() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] big = new byte[Protocol.DATA_CHUNK * 2 + 5];
    new FrameWriter(out).data(FrameType.ERR, big, 0, big.length);
    FrameReader r = new FrameReader(new ByteArrayInputStream(out.toByteArray()));
    int total = 0;
    int frames = 0;
    for (Optional<Frame> f; (f = r.next(Protocol.MAX_FRAME)).isPresent(); frames++) {
      assertTrue(f.get().payload().length <= Protocol.DATA_CHUNK);
      total += f.get().payload().length;
    }
    assertEquals(3, frames);
    assertEquals(big.length, total);
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of("bad_short_header", new byte[] {0, 0, 0}, "inside a frame header"),
        Arguments.of("bad_zero_length", new byte[] {0, 0, 0, 0, 'O'}, "a frame of 0 bytes"),
        Arguments.of("bad_over_limit", new byte[] {0, 0x10, 0, 2, 'O'}, "a frame of 1048578 bytes"),
        Arguments.of("bad_type", new byte[] {0, 0, 0, 1, '?'}, "unknown frame type 63"),
        Arguments.of("bad_short_payload", new byte[] {0, 0, 0, 4, 'O', 1}, "1 of 3 payload bytes"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void refusesMalformedFrames(String name, byte[] bytes, String expected) {
    FrameReader r = new FrameReader(new ByteArrayInputStream(bytes));
    ProtocolException e =
        assertThrows(ProtocolException.class, () -> r.next(Protocol.MAX_FRAME), name);
    assertTrue(e.getMessage().contains(expected), name + ": " + e.getMessage());
  }
}
