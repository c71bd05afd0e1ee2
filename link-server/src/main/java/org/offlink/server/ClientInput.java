package org.offlink.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.LinkedBlockingQueue;
import org.offlink.server.protocol.FrameType;
import org.offlink.server.protocol.FrameWriter;

/**
 * A link's stdin: on the first read the client is asked ({@link FrameType#WANT_STDIN}) to relay its
 * stdin, which then arrives as {@link FrameType#STDIN} frames; a link that never reads stdin never
 * takes any of the client's.
 */
final class ClientInput extends InputStream {
  private static final byte[] END = new byte[0];

  private final FrameWriter writer;
  private final LinkedBlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
  private boolean asked;
  private byte[] current = new byte[0];
  private int position;
  private boolean ended;

  ClientInput(FrameWriter writer) {
    this.writer = writer;
  }

  /** Bytes from the client; an empty array is the end of its stdin. */
  void feed(byte[] bytes) {
    chunks.add(bytes.length == 0 ? END : bytes);
  }

  /** No more input: the link was cancelled, or the client has gone. */
  void end() {
    chunks.add(END);
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (!asked) {
      asked = true;
      try {
        writer.write(FrameType.WANT_STDIN, new byte[0]);
      } catch (IOException e) {
        ended = true;
      }
    }
    while (!ended && position == current.length) {
      try {
        current = chunks.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting for stdin");
      }
      position = 0;
      ended = current == END;
    }
    if (ended) {
      return -1;
    }
    int n = Math.min(len, current.length - position);
    System.arraycopy(current, position, b, off, n);
    position += n;
    return n;
  }
}
