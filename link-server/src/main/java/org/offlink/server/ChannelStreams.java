package org.offlink.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Blocking streams over a socket channel that one thread may read while another writes. ({@code
 * Channels.newInputStream} holds the channel's blocking lock while it waits to read, which would
 * keep the link's output from being written until the client sent something.)
 */
final class ChannelStreams {
  private ChannelStreams() {}

  static InputStream input(SocketChannel channel) {
    return new InputStream() {
      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
          return 0;
        }
        return channel.read(ByteBuffer.wrap(b, off, len));
      }
    };
  }

  static OutputStream output(SocketChannel channel) {
    return new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
      }
    };
  }
}
