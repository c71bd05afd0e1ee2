package org.offlink.ltowrapper.run;

/**
 * A fatal lto-wrapper condition whose message is GCC's diagnostic text (without the {@code
 * lto-wrapper: fatal error: } prefix). Thrown anywhere below {@link
 * org.offlink.ltowrapper.LtoWrapper#run} and turned into stderr text and exit status 1 at exactly
 * one place.
 */
public class LtoWrapperException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception with the diagnostic text. */
  public LtoWrapperException(String message) {
    super(message);
  }

  /** Creates the exception with the diagnostic text and the underlying cause (shown with -v). */
  public LtoWrapperException(String message, Throwable cause) {
    super(message, cause);
  }
}
