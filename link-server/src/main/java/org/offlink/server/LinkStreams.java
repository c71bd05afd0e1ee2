package org.offlink.server;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Objects;

/**
 * A link's standard streams, relayed by its client: {@code out} is the tool's stdout (for
 * lto-wrapper its protocol), {@code err} its stderr, {@code in} its stdin (asked of the client on
 * the first read).
 */
public record LinkStreams(InputStream in, PrintStream out, PrintStream err) {
  /** Checks the fields. */
  public LinkStreams {
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(err, "err");
  }
}
