package org.offlink.server;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.offlink.server.protocol.FrameWriter;

/**
 * A user's resident link server: serves links of its own identity, many at once, on the socket
 * {@code <folder>/<hash>.sock}, until it has had no link for its idle time, is asked to stop, or
 * finds its installation changed or its socket gone.
 *
 * <p>Start: the folder is checked ({@link ServerFolder}); {@code <hash>.lock} is taken, so that one
 * server at a time owns the socket's name; the socket is bound under a private name and renamed
 * over the shared one (a stale socket of a server that was killed is replaced in one step, and no
 * client ever finds the name missing or half made). A server that a client started serves that
 * client's link at once, on the connection the client handed over ({@link #serveStarter}), while it
 * checks the folder, takes the lock and binds.
 *
 * <p>End: the name is removed first (new clients start a new server), the lock released, then the
 * connections already queued are still served, and the server waits for every link to end. No
 * client that connected is ever dropped.
 */
public final class LinkServer {
  /** The exit status when another server of this identity owns the socket's name. */
  public static final int ALREADY_RUNNING = 3;

  private static final long HOUSEKEEPING_MS = 1000;
  private static final long RECHECK_NANOS = 10_000_000_000L;
  private static final long LOCK_WAIT_MS = 2000;
  private static final Duration COMPACT_AFTER = Duration.ofSeconds(20);

  private final ServerOptions options;
  private final LinkExecutor executor;
  private final ServerLog log;
  private final ServerState state = new ServerState();
  private final AtomicLong connectionNumber = new AtomicLong();
  private final Path socket;
  private final StarterNotice starter = new StarterNotice();
  private ScheduledExecutorService timer; // made on first use: not on a first link's path
  private volatile UserPrincipal owner;
  private volatile Selector selector;

  /** A server with these options, running links with {@code executor}. */
  public LinkServer(ServerOptions options, LinkExecutor executor, ServerLog log) {
    this.options = Objects.requireNonNull(options, "options");
    this.executor = Objects.requireNonNull(executor, "executor");
    this.log = Objects.requireNonNull(log, "log");
    this.socket = options.folder().resolve(options.identity().hash() + ".sock");
  }

  /** The socket this server listens on. */
  public Path socket() {
    return socket;
  }

  /**
   * Serves until it retires; returns 0, {@link #ALREADY_RUNNING}, or 1 when it could not start (the
   * reason is logged).
   */
  public int run() {
    int status;
    try {
      status = listenAndServe();
    } finally {
      starter.settled();
    }
    try {
      state.awaitNoConnections();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      synchronized (this) {
        if (timer != null) {
          timer.shutdownNow();
        }
      }
    }
    log.line("stopped");
    return status;
  }

  /**
   * Serves the link of the client that started this server, on {@code connection}, on a thread of
   * its own; {@link #run} returns only once it has ended, whether or not this server gets its
   * socket.
   */
  public void serveStarter(Connection connection) {
    serve(connection);
  }

  private int listenAndServe() {
    try {
      ServerFolder.checkPrivate(options.folder(), ServerFolder.currentUid());
    } catch (IOException e) {
      log.line("not started: " + e.getMessage());
      return 1;
    }
    String hash = options.identity().hash();
    try (FileChannel lockFile =
        FileChannel.open(
            options.folder().resolve(hash + ".lock"),
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS)) {
      FileLock lock = acquire(lockFile);
      if (lock == null) {
        log.line("not started: another server of this identity owns " + socket);
        starter.listening(); // that one: the clients waiting for a start may connect to it
        return ALREADY_RUNNING;
      }
      return serve(lock);
    } catch (IOException e) {
      log.line("stopped: " + e);
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    }
  }

  /** The lock, waiting a little for a retiring server to let go of it; null if it does not. */
  private static FileLock acquire(FileChannel file) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + LOCK_WAIT_MS * 1_000_000;
    while (true) {
      try {
        FileLock lock = file.tryLock();
        if (lock != null) {
          return lock;
        }
      } catch (OverlappingFileLockException heldHere) {
        // another server in this JVM (tests) holds it
      }
      if (System.nanoTime() > deadline) {
        return null;
      }
      Thread.sleep(10);
    }
  }

  private int serve(FileLock lock) throws IOException {
    try (ServerSocketChannel listener = bind();
        Selector s = Selector.open()) {
      selector = s;
      owner = Files.getOwner(socket, LinkOption.NOFOLLOW_LINKS);
      Object key = fileKey();
      listener.configureBlocking(false);
      listener.register(s, SelectionKey.OP_ACCEPT);
      log.line("serving on " + socket + " (pid " + ProcessHandle.current().pid() + ")");
      starter.listening();
      long nextCheck = System.nanoTime() + RECHECK_NANOS;
      while (true) {
        s.select(HOUSEKEEPING_MS);
        s.selectedKeys().clear();
        acceptAll(listener);
        if (state.shouldCompact(COMPACT_AFTER)) {
          System.gc();
        }
        String why = state.shouldRetire(options.idle()) ? "idle or asked to stop" : null;
        if (why == null && System.nanoTime() > nextCheck) {
          why = stale(key);
          nextCheck = System.nanoTime() + RECHECK_NANOS;
        }
        if (why != null) {
          log.line("retiring: " + why);
          break;
        }
      }
      state.retiring();
      if (Objects.equals(fileKey(), key)) {
        Files.deleteIfExists(socket);
      }
      lock.release();
      acceptAll(listener); // those that connected before the name went
    } finally {
      selector = null;
    }
    return 0;
  }

  private ServerSocketChannel bind() throws IOException {
    Path staging =
        socket.resolveSibling(socket.getFileName() + "." + ProcessHandle.current().pid());
    Files.deleteIfExists(staging);
    ServerSocketChannel listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    try {
      listener.bind(SocketAddresses.of(staging, options.inFolder()), 64);
      Files.move(staging, socket, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      listener.close();
      Files.deleteIfExists(staging);
      throw e;
    }
    return listener;
  }

  private void acceptAll(ServerSocketChannel listener) throws IOException {
    SocketChannel channel;
    while ((channel = listener.accept()) != null) {
      channel.configureBlocking(true);
      serve(new SocketConnection(channel));
    }
  }

  /** Serves a connection on a thread of its own. */
  private void serve(Connection connection) {
    state.connectionOpened();
    Thread t =
        new Thread(
            () -> {
              try {
                new ClientConnection(connection, this, log).serve();
              } finally {
                state.connectionClosed();
                Selector s = selector;
                if (s != null) {
                  s.wakeup(); // the idle clock may start now
                }
              }
            },
            "offlink-connection-" + connectionNumber.incrementAndGet());
    t.start();
  }

  /** Why this server should stop serving although it is wanted, or null. */
  private String stale(Object key) {
    if (!Objects.equals(fileKey(), key)) {
      return "its socket " + socket + " is gone or was replaced";
    }
    try {
      ServerIdentity now = ServerIdentity.of(options.root(), options.java(), options.environment());
      return now.equals(options.identity()) ? null : "its installation or JVM has changed";
    } catch (IOException e) {
      return "its installation is gone: " + e.getMessage();
    }
  }

  private Object fileKey() {
    try {
      return Files.readAttributes(
              socket, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
          .fileKey();
    } catch (IOException e) {
      return null;
    }
  }

  /** Runs an accepted link on the calling (connection) thread. */
  void serveLink(LinkSession session) {
    state.linkStarted();
    int status = 1;
    try {
      status = session.run(executor);
    } finally {
      state.linkEnded(status);
    }
  }

  /** The server's timer thread (for clients slow to send their first frame). */
  synchronized ScheduledExecutorService timer() {
    if (timer == null) {
      timer =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "offlink-server-timer");
                t.setDaemon(true);
                return t;
              });
    }
    return timer;
  }

  /** The starting client's connection can take frames now ({@link StarterNotice}). */
  void starterConnected(FrameWriter writer) {
    starter.connected(writer);
  }

  /** Waits until this server listens or will not ({@link StarterNotice}). */
  void awaitStarterSettled() {
    starter.awaitSettled();
  }

  UserPrincipal owner() {
    return owner;
  }

  ServerIdentity identity() {
    return options.identity();
  }

  void requestStop() {
    state.requestStop();
    Selector s = selector;
    if (s != null) {
      s.wakeup();
    }
  }

  String status() {
    Runtime rt = Runtime.getRuntime();
    return "pid="
        + ProcessHandle.current().pid()
        + "\nsocket="
        + socket
        + "\njava="
        + options.java()
        + "\njava_version="
        + Runtime.version()
        + "\nroot="
        + options.root()
        + "\n"
        + state.describe(options.idle())
        + "heap_used_mib="
        + (rt.totalMemory() - rt.freeMemory()) / (1 << 20)
        + "\nheap_max_mib="
        + rt.maxMemory() / (1 << 20)
        + "\n"
        + ProcessFacts.describe();
  }
}
