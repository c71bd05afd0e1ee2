package org.offlink.ltowrapper.cache;

import java.io.IOException;

/**
 * The cache folder, a folder above it or in it is not one only trusted users can write ({@link
 * CacheTrust}): the link goes on without the cache. The message names the folder and what is wrong
 * with it, in one line.
 */
final class UntrustedCacheException extends IOException {
  private static final long serialVersionUID = 1L;

  UntrustedCacheException(String problem) {
    super(problem);
  }
}
