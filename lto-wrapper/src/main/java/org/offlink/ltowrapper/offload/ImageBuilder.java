package org.offlink.ltowrapper.offload;

/**
 * Builds one target's offload image: runs mkoffload for an {@link ImageRequest}, in this JVM
 * ({@link InProcessImageBuilder}) or as a program ({@link SubprocessImageBuilder}). Either way
 * GCC's {@code -v} echo, response file and link report entry are the same.
 */
public interface ImageBuilder {
  /** Runs mkoffload; a failure is in the result, not thrown (the caller applies the policy). */
  ImageResult build(ImageRequest request);
}
