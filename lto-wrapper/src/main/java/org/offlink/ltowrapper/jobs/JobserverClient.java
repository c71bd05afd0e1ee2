package org.offlink.ltowrapper.jobs;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;

/**
 * A GNU make jobserver client. Like every make child it owns one implicit slot; each further
 * concurrent job reads one token byte from the jobserver and writes the same byte back when done.
 * The pipe form's inherited descriptors are reopened through {@code /proc/self/fd/N} (Linux), which
 * gives us blocking descriptions of our own without touching make's flags.
 */
public final class JobserverClient implements TokenPool {
  private final InputStream in;
  private final OutputStream out;
  private final Deque<Integer> heldBytes = new ArrayDeque<>();
  private boolean implicitFree = true;

  private JobserverClient(InputStream in, OutputStream out) {
    this.in = in;
    this.out = out;
  }

  /** Connects to the jobserver described by {@code auth}; {@code fdPath} maps a descriptor. */
  public static JobserverClient connect(JobserverAuth auth, IntFunction<Path> fdPath)
      throws IOException {
    if (auth.fifo().isPresent()) {
      // One read-write description: opening a FIFO O_RDWR never blocks on Linux, whereas a
      // read-only or write-only open would wait for the other side.
      RandomAccessFile fifo = new RandomAccessFile(auth.fifo().get(), "rw");
      return new JobserverClient(
          new FileInputStream(fifo.getFD()), new FileOutputStream(fifo.getFD()));
    }
    return new JobserverClient(
        new FileInputStream(fdPath.apply(auth.readFd()).toFile()),
        new FileOutputStream(fdPath.apply(auth.writeFd()).toFile(), true));
  }

  /** The Linux mapping of an inherited descriptor. */
  public static Path procFd(int fd) {
    return Path.of("/proc/self/fd/" + fd);
  }

  /**
   * The mapping for a link run for another process (a link server's client): that process's
   * descriptors are not this one's, so each maps to a path that cannot exist.
   */
  public static Path notHere(int fd) {
    return Path.of("/proc/self/fd", "not-inherited", Integer.toString(fd));
  }

  @Override
  public Token acquire() throws IOException {
    synchronized (this) {
      if (implicitFree) {
        implicitFree = false;
        return token(-1);
      }
    }
    int b = in.read(); // blocks until make hands out a token
    if (b < 0) {
      throw new IOException("jobserver closed its pipe");
    }
    synchronized (this) {
      heldBytes.push(b);
    }
    return token(b);
  }

  private Token token(int b) {
    AtomicBoolean released = new AtomicBoolean();
    return () -> {
      if (released.compareAndSet(false, true)) {
        release(b);
      }
    };
  }

  private void release(int b) throws IOException {
    if (b < 0) {
      synchronized (this) {
        implicitFree = true;
      }
      return;
    }
    synchronized (this) {
      heldBytes.removeFirstOccurrence(b);
    }
    out.write(b);
    out.flush();
  }

  /** Returns any token still held (so make is never starved), then closes the streams. */
  @Override
  public void close() throws IOException {
    try {
      synchronized (this) {
        while (!heldBytes.isEmpty()) {
          out.write(heldBytes.pop());
        }
      }
      out.flush();
    } finally {
      try {
        in.close();
      } finally {
        out.close();
      }
    }
  }
}
