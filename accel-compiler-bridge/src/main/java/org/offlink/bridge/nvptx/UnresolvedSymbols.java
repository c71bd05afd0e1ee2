package org.offlink.bridge.nvptx;

/**
 * nvptx-ld's list of symbols referenced and not yet defined: a doubly linked list through the
 * symbols themselves, the newest first (the order the linker resolves them in).
 *
 * @param <S> the linker's symbol
 */
final class UnresolvedSymbols<S extends UnresolvedSymbols.Node<S>> {
  /** A symbol's links on the list, and whether it has ever been put on it. */
  abstract static class Node<S extends Node<S>> {
    S prev;
    S next;
    boolean queued;
    boolean referenced;
  }

  private S head;

  /** The newest symbol on the list, or null. */
  S head() {
    return head;
  }

  /** Empties the list (its symbols' flags are the caller's). */
  void clear() {
    head = null;
  }

  /** Puts {@code e} first, and marks it referenced. */
  void enqueue(S e) {
    e.prev = null;
    e.next = head;
    if (head != null) {
      head.prev = e;
    }
    head = e;
    e.queued = true;
    e.referenced = true;
  }

  /** Takes {@code e} off the list, if on it; its {@code next} stays, for a loop walking it. */
  void dequeue(S e) {
    if (!e.queued) {
      return;
    }
    if (e.next != null) {
      e.next.prev = e.prev;
    }
    if (e.prev != null) {
      e.prev.next = e.next;
    } else {
      head = e.next;
    }
    e.queued = false;
  }
}
