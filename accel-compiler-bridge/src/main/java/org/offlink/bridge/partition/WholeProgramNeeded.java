package org.offlink.bridge.partition;

/**
 * The partitions cannot give the image the whole-program compile would: the image is built by one
 * whole-program accel compile instead, as GCC builds it.
 */
public final class WholeProgramNeeded extends Exception {
  private static final long serialVersionUID = 1L;

  /** Says why. */
  public WholeProgramNeeded(String reason) {
    super(reason);
  }
}
