package org.offlink.server;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.attribute.UserPrincipal;
import java.util.Optional;

/**
 * The connection of the client that started this server: one end of a socket pair it made, handed
 * over as the server's stdin ({@code src/main/c/spawn.c}), so that its link runs while the server
 * still sets up its socket. It is read and written as a plain file descriptor: the JDK's Unix
 * socket classes, whose first use costs a new JVM tens of milliseconds (see {@link SocketWarmUp}),
 * stay off the first link's path. Its peer is the process that started this server: the same user
 * by construction.
 *
 * <p>Closing it closes descriptor 0 (and {@code System.in} with it, which nothing in a server
 * reads): a later file the JVM opens may take the number, never this connection's streams. A thread
 * blocked reading it is not woken by the close; it is by the client's end closing, which happens
 * when the client has its exit status or has gone.
 */
final class StarterConnection implements Connection {
  private final FileInputStream in = new FileInputStream(FileDescriptor.in);
  private final FileOutputStream out = new FileOutputStream(FileDescriptor.in);

  @Override
  public InputStream input() {
    // Only read(byte[], int, int) of the file stream: JDK 17's FileInputStream.readNBytes asks for
    // the file's size and position first, which a socket has not ("Illegal seek").
    return new InputStream() {
      @Override
      public int read() throws IOException {
        return in.read();
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        return in.read(b, off, len);
      }
    };
  }

  @Override
  public OutputStream output() {
    return out;
  }

  @Override
  public Optional<String> stranger(UserPrincipal owner) {
    return Optional.empty();
  }

  @Override
  public boolean starter() {
    return true;
  }

  @Override
  public void close() {
    try {
      in.close(); // closes the descriptor that both streams share
    } catch (IOException e) {
      // already closed
    }
  }
}
