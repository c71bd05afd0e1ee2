package org.offlink.bridge.image;

import java.util.List;
import java.util.Objects;

/**
 * What GCC 12's nvptx mkoffload registers: the linked PTX split at NUL bytes into chunks (with the
 * {@code //:} map lines removed and CRs dropped, exactly as its C generator emits them), the
 * variable names of {@code //:VAR_MAP} and the functions of {@code //:FUNC_MAP}, in file order.
 *
 * <p>Each chunk's bytes exclude the terminating NUL; libgomp's {@code ptx_obj.size} is {@code
 * chunk.length + 1} because GCC uses {@code sizeof} of the string literal.
 */
public record NvptxImage(
    List<byte[]> ptxChunks, List<String> variables, List<NvptxFunction> functions) {
  /** Copies the lists so the record stays immutable. */
  public NvptxImage {
    ptxChunks = List.copyOf(Objects.requireNonNull(ptxChunks, "ptxChunks"));
    variables = List.copyOf(Objects.requireNonNull(variables, "variables"));
    functions = List.copyOf(Objects.requireNonNull(functions, "functions"));
  }

  /** The image GCC writes for {@code -foffload-abi=ilp32}: no PTX, no functions, no variables. */
  public static NvptxImage empty() {
    return new NvptxImage(List.of(), List.of(), List.of());
  }
}
