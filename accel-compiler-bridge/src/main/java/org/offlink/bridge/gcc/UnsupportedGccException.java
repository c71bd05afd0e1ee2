package org.offlink.bridge.gcc;

import java.io.IOException;

/**
 * The GCC installation or a requested configuration is one offlink does not implement (another
 * major version's offload layout, an unknown GPU architecture, a broken accel multilib). The
 * message is one line saying what and why.
 */
public class UnsupportedGccException extends IOException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception with a one-line message. */
  public UnsupportedGccException(String message) {
    super(message);
  }
}
