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
   * @param unreachable the server could not be reached, did not answer in time or sent what no
   *     cache should (an oversized body, a redirect, 401/403): ask it no more
   */
  RemoteCacheException(String message, boolean unreachable) {
    super(message);
    this.unreachable = unreachable;
  }

  /** Whether the server is not to be asked again in this link. */
  boolean unreachable() {
    return unreachable;
  }
}
