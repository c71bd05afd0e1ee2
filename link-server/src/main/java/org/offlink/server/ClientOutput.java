package org.offlink.server;

import java.io.IOException;
import java.io.OutputStream;
import org.offlink.server.protocol.FrameType;
import org.offlink.server.protocol.FrameWriter;

/**
 * A link's stdout or stderr: bytes written become {@link FrameType#OUT} or {@link FrameType#ERR}
 * frames. Once the link is cancelled, or the client has gone, writes are dropped: the client has
 * its status, and nothing may follow it.
 */
final class ClientOutput extends OutputStream {
  private final FrameWriter writer;
  private final FrameType type;
  private final Runnable clientGone;
  private volatile boolean muted;

  ClientOutput(FrameWriter writer, FrameType type, Runnable clientGone) {
    this.writer = writer;
    this.type = type;
    this.clientGone = clientGone;
  }

  void mute() {
    muted = true;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) {
    if (muted || len == 0) {
      return;
    }
    try {
      writer.data(type, b, off, len);
    } catch (IOException e) {
      muted = true;
      clientGone.run();
    }
  }
}
