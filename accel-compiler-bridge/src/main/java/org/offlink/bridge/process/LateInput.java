package org.offlink.bridge.process;

/**
 * What a child reads on its standard input when those bytes become known only after it has started
 * ({@link Command#withInput}): the runner writes them once {@link #supply} gives them, and closes
 * the child's input after them. A child whose input is {@link #abandon abandoned} instead is ended
 * (as a cancelled link's children are) and gets no bytes. The first of the two calls decides; the
 * runner abandons the input itself once the child has exited, so its feeding thread never waits for
 * a caller that has gone.
 */
public final class LateInput {
  private byte[] bytes; // guarded by this
  private boolean decided; // guarded by this

  /**
   * Gives the child {@code data} (not copied: it may be megabytes, and the caller is done with it);
   * nothing when the input was abandoned or given already.
   */
  public synchronized void supply(byte[] data) {
    if (!decided) {
      bytes = data;
      decided = true;
      notifyAll();
    }
  }

  /** Ends the child without input; nothing when the input was given already. */
  public synchronized void abandon() {
    if (!decided) {
      decided = true;
      notifyAll();
    }
  }

  /** Waits for the caller's decision: the bytes, or null when the input was abandoned. */
  synchronized byte[] await() throws InterruptedException {
    while (!decided) {
      wait();
    }
    return bytes;
  }
}
