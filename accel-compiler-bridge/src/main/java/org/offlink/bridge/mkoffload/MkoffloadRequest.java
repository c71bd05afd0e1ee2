package org.offlink.bridge.mkoffload;

import java.util.List;
import java.util.Objects;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.bridge.wrapper.WrapperMode;

/**
 * One mkoffload invocation: the target it builds for, GCC's arguments (before {@code @file}
 * expansion, without offlink's own options), how to write the wrapper object, and whether the
 * caller has already checked that every input carries offload IR (lto-wrapper has, having read each
 * input's {@code .gnu.offload_lto_.opts}: mkoffload then does not open them all again).
 */
public record MkoffloadRequest(
    OffloadTarget target, List<String> gccArguments, WrapperMode mode, boolean inputsChecked) {
  /** Copies and checks the fields. */
  public MkoffloadRequest {
    Objects.requireNonNull(target, "target");
    gccArguments = List.copyOf(Objects.requireNonNull(gccArguments, "gccArguments"));
    Objects.requireNonNull(mode, "mode");
  }

  /** A request whose inputs mkoffload checks itself. */
  public MkoffloadRequest(OffloadTarget target, List<String> gccArguments, WrapperMode mode) {
    this(target, gccArguments, mode, false);
  }

  /** The same request, its inputs vouched for by the caller. */
  public MkoffloadRequest withInputsChecked() {
    return new MkoffloadRequest(target, gccArguments, mode, true);
  }
}
