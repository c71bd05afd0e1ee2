package org.offlink.bridge.gcc;

import java.io.IOException;

/** A mkoffload argument list GCC 12 would reject; the message follows GCC's wording. */
public class OffloadOptionException extends IOException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception with a one-line message. */
  public OffloadOptionException(String message) {
    super(message);
  }
}
