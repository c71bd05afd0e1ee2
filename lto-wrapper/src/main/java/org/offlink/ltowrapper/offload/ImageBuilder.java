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
   * Runs mkoffload as {@link #build(ImageRequest)} does, telling {@code watcher} how it goes (a
   * builder that cannot tell, such as a mkoffload run as a program, tells it nothing).
   */
  default ImageResult build(ImageRequest request, BuildWatcher watcher) {
    return build(request);
  }

  /** Told, on the building thread, how an in-process build goes. */
  interface BuildWatcher {
    /** Is told nothing. */
    BuildWatcher NONE = new BuildWatcher() {};

    /**
     * The build is about to start a program (the accel compiler first): from here on this JVM
     * mostly waits, and a second core is mostly free.
     */
    default void programStarting() {}

    /**
     * The wrapper object (not to be changed) with its image's counts, in memory, as it is being
     * written to the build's output.
     */
    default void objectReady(byte[] object, ImageCounts counts) {}
  }
}
