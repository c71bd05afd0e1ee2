package org.offlink.ltowrapper.jobs;

import java.io.IOException;

/**
 * Job slots shared by concurrent work. A token is taken before a job starts and given back after it
 * ends, whatever the outcome.
 */
public interface TokenPool extends AutoCloseable {
  /** Blocks until a slot is available and takes it. */
  Token acquire() throws IOException, InterruptedException;

  /** Gives every held token back; the pool must not be used afterwards. */
  @Override
  void close() throws IOException;

  /** A held slot; {@link #close} releases it (idempotent). */
  interface Token extends AutoCloseable {
    @Override
    void close() throws IOException;
  }
}
