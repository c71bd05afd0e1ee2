package org.offlink.bridge.mkoffload;

import java.util.Objects;
import java.util.Optional;
import org.offlink.bridge.gcc.GccInstallation;
import org.offlink.bridge.gcc.OffloadOptions;
import org.offlink.bridge.nvptx.PtxLinking;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.bridge.wrapper.WrapperMode;

/**
 * One mkoffload run, typed: the target it builds for, GCC's options (read from a command line by
 * {@link OffloadOptions#parse}, or handed over by lto-wrapper in this JVM through {@link
 * OffloadOptions#of}), how to write the wrapper object, and whether the caller has already checked
 * that every input carries offload IR (lto-wrapper has, having read each input's {@code
 * .gnu.offload_lto_.opts}: mkoffload then does not open them all again), and the GCC installation
 * when the caller has found it already (lto-wrapper's link plan).
 *
 * @param target the offload target
 * @param options GCC's mkoffload options
 * @param mode how the wrapper object is written
 * @param inputsChecked the inputs are known to carry offload IR
 * @param installation the GCC running the link, when known; else mkoffload finds it
 * @param ptxLinking how an nvptx build may link its PTX in-process ({@link PtxLinking#NONE}: never)
 */
public record MkoffloadRequest(
    OffloadTarget target,
    OffloadOptions options,
    WrapperMode mode,
    boolean inputsChecked,
    Optional<GccInstallation> installation,
    PtxLinking ptxLinking) {
  /** Checks the fields. */
  public MkoffloadRequest {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(installation, "installation");
    Objects.requireNonNull(ptxLinking, "ptxLinking");
  }
}
