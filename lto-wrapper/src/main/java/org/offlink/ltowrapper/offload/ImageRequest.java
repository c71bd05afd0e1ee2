package org.offlink.ltowrapper.offload;

import java.util.List;
import java.util.Objects;
import org.offlink.ltowrapper.io.InputFile;

/**
 * One target's image build as lto-wrapper asks for it: mkoffload's full command line in GCC's order
 * (see {@link MkoffloadCommand}), the object it writes, and the response file's {@code -save-temps}
 * suffix.
 *
 * @param target the target triplet as {@code OFFLOAD_TARGET_NAMES} spells it
 * @param argv the mkoffload command line, argv[0] the located mkoffload
 * @param output the object mkoffload writes ({@code -o})
 * @param responseSuffix the kept response file's suffix ({@code offload_args} or GCC 14's
 *     per-target {@code <target>.offload_args})
 * @param inputs the offload objects the image is built from, in link order (as spelled in {@code
 *     argv})
 */
public record ImageRequest(
    String target,
    List<String> argv,
    String output,
    String responseSuffix,
    List<InputFile> inputs) {
  /** Copies and checks the fields. */
  public ImageRequest {
    Objects.requireNonNull(target, "target");
    argv = List.copyOf(argv);
    inputs = List.copyOf(inputs);
    Objects.requireNonNull(output, "output");
    Objects.requireNonNull(responseSuffix, "responseSuffix");
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("empty mkoffload command line");
    }
  }
}
