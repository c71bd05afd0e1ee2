package org.offlink.streamer.opts;

/**
 * A COLLECT_GCC_OPTIONS-style string has an unterminated quote. The message starts with GCC's
 * wording, {@code malformed 'COLLECT_GCC_OPTIONS'}, followed by where the quote opened.
 */
public class MalformedOptionsException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final int quoteIndex;

  /** Creates the exception for a quote opened at {@code quoteIndex} and never closed. */
  public MalformedOptionsException(int quoteIndex) {
    super(
        "malformed 'COLLECT_GCC_OPTIONS': expected a closing quote for the quote at index "
            + quoteIndex
            + ", found the end of the string");
    this.quoteIndex = quoteIndex;
  }

  /** Index of the opening quote that was never closed. */
  public int quoteIndex() {
    return quoteIndex;
  }
}
