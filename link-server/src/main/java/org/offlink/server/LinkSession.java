package org.offlink.server;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.offlink.runtime.LinkScope;
import org.offlink.runtime.NativeCharset;
import org.offlink.server.protocol.Frame;
import org.offlink.server.protocol.FrameReader;
import org.offlink.server.protocol.FrameType;
import org.offlink.server.protocol.FrameWriter;
import org.offlink.server.protocol.LinkRequest;
import org.offlink.server.protocol.Protocol;

/**
 * One accepted link: runs it on this thread while a reader thread takes the client's frames (stdin,
 * a cancel, or the end of the connection, which cancels too). Exactly one of two things ends the
 * session: the link returns its status, or it is cancelled, which ends its children and removes its
 * files ({@link LinkControl}). A cancelled link's client gets 128 + the signal's number once the
 * link has unwound, as a JVM run for the link exits only after its clean-up: a file the link made
 * while the cancel ran is gone too before the linker (and the build) go on. Whichever comes first
 * wins; the other finds nothing to do. {@code beforeExit} runs before the exit status is sent (the
 * link of the client that started the server waits there for the server's socket: {@link
 * StarterNotice}).
 */
final class LinkSession implements LinkScope.Observer {
  private static final int RUNNING = 0;
  private static final int DONE = 1;
  private static final int CANCELLED = 2; // the client has gone
  private static final int CANCELLED_BY_CLIENT = 3; // the client asked: it waits for its EXIT

  private final LinkRequest request;
  private final Connection connection;
  private final FrameReader reader;
  private final FrameWriter writer;
  private final ServerLog log;
  private final Runnable beforeExit;
  private final AtomicInteger state = new AtomicInteger(RUNNING);
  private final AtomicInteger cancelledStatus = new AtomicInteger(1);
  private final CountDownLatch cancelDone = new CountDownLatch(1);
  private final LinkControl control = new LinkControl(this);
  private final ClientOutput out;
  private final ClientOutput err;
  private final ClientInput in;

  LinkSession(
      LinkRequest request,
      Connection connection,
      FrameReader reader,
      FrameWriter writer,
      ServerLog log,
      Runnable beforeExit) {
    this.request = request;
    this.connection = connection;
    this.reader = reader;
    this.writer = writer;
    this.log = log;
    this.beforeExit = beforeExit;
    this.out = new ClientOutput(writer, FrameType.OUT, this::clientGone);
    this.err = new ClientOutput(writer, FrameType.ERR, this::clientGone);
    this.in = new ClientInput(writer);
  }

  /** Runs the link; returns its status (or 128 + signal when cancelled). */
  int run(LinkExecutor executor) {
    try {
      writer.u32(FrameType.ACCEPTED, ProcessHandle.current().pid());
    } catch (IOException e) {
      return 1; // the client has gone: nothing ran, and nobody is waiting
    }
    Thread frames = new Thread(this::readFrames, "offlink-client-frames");
    frames.setDaemon(true);
    frames.start();
    // The link's text is the bytes of the operating system, encoded as a one-link JVM's System.out
    // and System.err encode it: a path the client sent as bytes goes back as the same bytes.
    PrintStream stdout =
        new PrintStream(new BufferedOutputStream(out), true, NativeCharset.CHARSET);
    PrintStream stderr =
        new PrintStream(new BufferedOutputStream(err), true, NativeCharset.CHARSET);
    int status;
    try {
      status = executor.run(request, new LinkStreams(in, stdout, stderr), control) & 0xff;
    } catch (RuntimeException | Error e) {
      log.line("link of client " + request.clientPid() + " failed: " + e);
      stderr.println(request.tool().path() + ": fatal error: " + e);
      status = 1;
    }
    stdout.flush();
    stderr.flush();
    if (state.compareAndSet(RUNNING, DONE)) {
      sendExit(status);
      close();
      return status;
    }
    // Cancelled: once the link has unwound and the cancel has ended its children and removed its
    // files, a client that asked for the cancel gets its status.
    awaitCancel();
    if (state.get() == CANCELLED_BY_CLIENT) {
      sendExit(cancelledStatus.get());
    }
    close();
    return cancelledStatus.get();
  }

  private void readFrames() {
    try {
      while (true) {
        Optional<Frame> next = reader.next(Protocol.MAX_FRAME);
        if (next.isEmpty()) {
          break;
        }
        Frame f = next.get();
        if (f.type() == FrameType.STDIN) {
          in.feed(f.payload());
        } else if (f.type() == FrameType.CANCEL && f.payload().length == 1) {
          int signal = f.payload()[0] & 0xff;
          cancel(128 + Math.min(signal, 127), true);
          return;
        } else {
          log.line("client " + request.clientPid() + " sent a " + f.type() + " frame mid-link");
          break;
        }
      }
    } catch (IOException e) {
      // the connection broke: the client is gone
    }
    clientGone();
  }

  /** The client has gone (killed, or its connection broken): the link is cancelled. */
  private void clientGone() {
    cancel(1, false);
  }

  private void cancel(int status, boolean tell) {
    if (!state.compareAndSet(RUNNING, tell ? CANCELLED_BY_CLIENT : CANCELLED)) {
      return;
    }
    cancelledStatus.set(status);
    try {
      out.mute();
      err.mute();
      in.end();
      control.cancel();
    } finally {
      cancelDone.countDown();
    }
    if (!tell) {
      close(); // nobody to tell: the connection is done
    }
  }

  private void awaitCancel() {
    try {
      cancelDone.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void sendExit(int status) {
    beforeExit.run();
    try {
      writer.write(FrameType.EXIT, new byte[] {(byte) status});
    } catch (IOException e) {
      // the client has gone; it learns nothing more
    }
  }

  private void close() {
    connection.close();
  }

  // What the client must know to clean up should this server die mid-link: every child is the
  // leader of a process group (offlink-exec), and every file the link tracks.

  @Override
  public void childStarted(long pid) {
    u32(FrameType.CHILD_GROUP, pid);
  }

  @Override
  public void childEnded(long pid) {
    u32(FrameType.CHILD_DONE, pid);
  }

  @Override
  public void fileTracked(Path file) {
    path(FrameType.TEMP_FILE, file);
  }

  @Override
  public void fileUntracked(Path file) {
    path(FrameType.TEMP_DONE, file);
  }

  private void u32(FrameType type, long value) {
    try {
      writer.u32(type, value);
    } catch (IOException e) {
      clientGone();
    }
  }

  private void path(FrameType type, Path file) {
    Path absolute = file.isAbsolute() ? file : Path.of(request.workingDirectory()).resolve(file);
    try {
      writer.write(type, absolute.toString().getBytes(NativeCharset.CHARSET));
    } catch (IOException e) {
      clientGone();
    }
  }
}
