package org.offlink.ltowrapper.cache;

/**
 * A file at an entry's path is not an entry this cache may use: not a regular file, not the user's,
 * too large, torn, damaged, or not the wrapper object its key promises ({@link CacheEntryFile}).
 * The caller removes it and builds the image: a miss, never a failed link. The message says what is
 * wrong, in one line, without the path.
 */
public final class CacheEntryException extends Exception {
  private static final long serialVersionUID = 1L;

  /** An exception saying {@code what} is wrong. */
  public CacheEntryException(String what) {
    super(what);
  }
}
