package org.offlink.ltowrapper.cache;

/**
 * Why one remote-cache exchange did not give a usable answer. Never leaves {@link BazelHttpCache}:
 * it becomes a miss and, once per client, a warning.
 */
final class RemoteCacheException extends Exception {
  private static final long serialVersionUID = 1L;

  private final boolean unreachable;

  /**
   * @param message what happened, for the warning line (no credentials)
   * @param unreachable the server could not be reached or did not answer in time: ask it no more
   */
  RemoteCacheException(String message, boolean unreachable) {
    super(message);
    this.unreachable = unreachable;
  }

  /** Whether the failure was at the connection level (refused, reset, timed out). */
  boolean unreachable() {
    return unreachable;
  }
}
