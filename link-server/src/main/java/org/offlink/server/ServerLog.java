package org.offlink.server;

import java.io.PrintStream;
import java.time.Instant;
import java.util.Objects;

/** The server's log: timestamped lines on its stderr, which the client pointed at {@code H.log}. */
public final class ServerLog {
  private final PrintStream err;

  /** A log writing to {@code err}. */
  public ServerLog(PrintStream err) {
    this.err = Objects.requireNonNull(err, "err");
  }

  /** Writes one line. */
  public synchronized void line(String text) {
    err.println(Instant.now() + " " + text);
    err.flush();
  }
}
