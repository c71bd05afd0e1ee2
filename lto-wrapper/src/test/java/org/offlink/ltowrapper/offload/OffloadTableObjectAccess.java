package org.offlink.ltowrapper.offload;

/** Test access to the table object's bytes from other packages. */
public final class OffloadTableObjectAccess {
  private OffloadTableObjectAccess() {}

  /** {@link OffloadTableObject#bytes()}. */
  public static byte[] bytes() {
    return OffloadTableObject.bytes();
  }
}
