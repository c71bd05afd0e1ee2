package org.offlink.bridge.mkoffload;

import java.util.List;
import java.util.Objects;
import org.offlink.bridge.tool.OffloadTarget;

/**
 * One mkoffload invocation: the target it builds for, GCC's arguments (before {@code @file}
 * expansion, without offlink's own options) and how to write the wrapper object.
 */
public record MkoffloadRequest(OffloadTarget target, List<String> gccArguments, WrapperMode mode) {
  /** Copies and checks the fields. */
  public MkoffloadRequest {
    Objects.requireNonNull(target, "target");
    gccArguments = List.copyOf(Objects.requireNonNull(gccArguments, "gccArguments"));
    Objects.requireNonNull(mode, "mode");
  }
}
