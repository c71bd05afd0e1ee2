package org.offlink.streamer.inspect;

import java.util.List;
import java.util.OptionalInt;

/**
 * GCC 12's {@code struct nvptx_tdata}, decoded.
 *
 * <pre>
 * offset size field (x86-64, 48 bytes)
 *  0     8    const struct ptx_obj *ptx_objs     ptx_obj = { const char *code; size_t size; } (16)
 *  8     4    unsigned ptx_num
 * 16     8    const char *const *var_names
 * 24     4    unsigned var_num
 * 32     8    const struct nvptx_fn *fn_names    nvptx_fn = { const char *name; u16 dim[3]; } (16)
 * 40     4    unsigned fn_num
 * </pre>
 *
 * GCC 13+ ({@code nvptx_data}) put the requires mask before it and GCC 14+ an {@code unsigned
 * ind_fn_num} at 44 (see {@link TargetDataLayout}).
 */
public record NvptxTargetData(
    long address,
    OptionalInt version,
    List<PtxChunk> chunks,
    List<String> variables,
    List<NvptxFunctionEntry> functions,
    LayoutFields fields)
    implements RegisteredImage {
  /** Size of the structure. */
  public static final int SIZE = 48;

  /** Copies the lists. */
  public NvptxTargetData {
    chunks = List.copyOf(chunks);
    variables = List.copyOf(variables);
    functions = List.copyOf(functions);
    java.util.Objects.requireNonNull(fields, "fields");
  }

  /** A GCC 12 {@code target_data}. */
  public NvptxTargetData(
      long address,
      OptionalInt version,
      List<PtxChunk> chunks,
      List<String> variables,
      List<NvptxFunctionEntry> functions) {
    this(address, version, chunks, variables, functions, LayoutFields.GCC12);
  }

  @Override
  public String target() {
    return "nvptx-none";
  }

  @Override
  public int deviceType() {
    return 5;
  }

  /** Total registered PTX bytes. */
  public long imageSize() {
    return chunks.stream().mapToLong(PtxChunk::size).sum();
  }
}
