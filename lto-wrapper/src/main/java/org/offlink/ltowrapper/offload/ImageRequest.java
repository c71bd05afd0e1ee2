package org.offlink.ltowrapper.offload;

import java.util.List;
import java.util.Optional;
import org.offlink.bridge.gcc.GccInstallation;
import org.offlink.bridge.gcc.MkoffloadArguments;
import org.offlink.bridge.wrapper.WrapperMode;
import org.offlink.ltowrapper.io.InputFile;

/**
 * One target's image build as lto-wrapper asks for it, typed: the located mkoffload, its arguments
 * (rendered as GCC's command line by {@link #argv} only for the {@code -v} echo, the response file
 * and a mkoffload run as a program), the wrapper form, the response file's {@code -save-temps}
 * suffix and the input objects.
 *
 * @param target the target triplet as {@code OFFLOAD_TARGET_NAMES} spells it
 * @param program the mkoffload as located (argv[0])
 * @param arguments what mkoffload is handed
 * @param wrapper how an in-process mkoffload writes the wrapper object ({@code OFFLINK_FLAGS
 *     --wrapper=})
 * @param responseSuffix the kept response file's suffix ({@code offload_args} or GCC 14's
 *     per-target {@code <target>.offload_args})
 * @param inputs the offload objects the image is built from, in link order (as spelled in the
 *     arguments)
 * @param installation the GCC running the link, when the link plan found it
 */
public record ImageRequest(
    String target,
    String program,
    MkoffloadArguments arguments,
    WrapperMode wrapper,
    String responseSuffix,
    List<InputFile> inputs,
    Optional<GccInstallation> installation) {
  /** Copies the inputs. */
  public ImageRequest {
    inputs = List.copyOf(inputs);
  }

  /** GCC's mkoffload command line, argv[0] the located mkoffload. */
  public List<String> argv() {
    return arguments.argv(program);
  }

  /** The object mkoffload writes ({@code -o}). */
  public String output() {
    return arguments.output();
  }
}
