package org.offlink.bridge.image;

/**
 * What the constructor of a GCC 16 gcn wrapper does with the {@code HSA_XNACK} environment variable
 * before it registers the image ({@code mkoffload_setup}, config/gcn/mkoffload.cc {@code
 * process_asm}): nothing, or set it to {@code 0} or {@code 1} when it is unset or empty and warn on
 * stderr when it holds anything else (the ROCr runtime reads it when it loads, and an image built
 * for the other XNACK mode falls back to the host).
 */
public enum HsaXnack {
  /** The image runs in either mode: {@code HSA_XNACK} is left alone. */
  UNCHECKED,
  /** The image needs XNACK off: {@code HSA_XNACK=0}. */
  OFF,
  /** The image needs XNACK on: {@code HSA_XNACK=1}. */
  ON;

  /** The value the wrapper sets: {@code 0} or {@code 1}. */
  public int value() {
    if (this == UNCHECKED) {
      throw new IllegalStateException("HSA_XNACK is not checked");
    }
    return this == ON ? 1 : 0;
  }
}
