package org.offlink.bridge.wrapper;

/**
 * An object is not a wrapper object offlink's ELF writer makes for the target asked about: it is
 * not ELF, has a section, symbol, relocation or byte the writer would not have written, or
 * registers other counts. The message says what differs, in one line.
 */
public final class WrapperMismatchException extends Exception {
  private static final long serialVersionUID = 1L;

  /** An exception saying {@code what} is wrong. */
  public WrapperMismatchException(String what) {
    super(what);
  }
}
