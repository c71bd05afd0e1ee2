package org.offlink.ltowrapper.offload;

import org.offlink.bridge.image.ImageCounts;

/**
 * Builds one target's offload image: runs mkoffload for an {@link ImageRequest}, in this JVM
 * ({@link InProcessImageBuilder}) or as a program ({@link SubprocessImageBuilder}). Either way
 * GCC's {@code -v} echo, response file and link report entry are the same.
 */
public interface ImageBuilder {
  /** Runs mkoffload; a failure is in the result, not thrown (the caller applies the policy). */
  ImageResult build(ImageRequest request);

  /**
   * Runs mkoffload as {@link #build(ImageRequest)} does, and hands {@code early} the wrapper object
   * as soon as it exists in memory, before it is written (a builder that never holds it, such as a
   * mkoffload run as a program, never calls it).
   */
  default ImageResult build(ImageRequest request, EarlyObject early) {
    return build(request);
  }

  /** Takes a wrapper object, on the building thread, while it is being written. */
  @FunctionalInterface
  interface EarlyObject {
    /** {@code object} (not to be changed) with its image's counts. */
    void accept(byte[] object, ImageCounts counts);
  }
}
