package org.offlink.ltowrapper.offload;

import java.util.Objects;
import java.util.Optional;
import org.offlink.bridge.image.ImageCounts;

/**
 * A target's wrapper object as mkoffload wrote it: the name lto-wrapper prints, and the image's
 * counts when known (see {@link ImageResult}).
 */
record BuiltObject(String name, Optional<ImageCounts> counts) {
  BuiltObject {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(counts, "counts");
  }
}
