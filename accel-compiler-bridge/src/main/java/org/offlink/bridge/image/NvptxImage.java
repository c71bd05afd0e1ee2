package org.offlink.bridge.image;

import java.util.List;
import java.util.Objects;

/**
 * What nvptx mkoffload registers: the linked PTX split at NUL bytes into chunks (with the {@code
 * //:} map lines removed and CRs dropped, exactly as its C generator emits them), the variable
 * names of {@code //:VAR_MAP}, the functions of {@code //:FUNC_MAP} and (GCC 14+) the indirect
 * functions of {@code //:IND_FUNC_MAP}, in file order; the PTX chunks GCC 13+ synthesises for the
 * reverse-offload and indirect-function tables; and how the registration is laid out.
 *
 * <p>Each chunk's bytes exclude the terminating NUL; libgomp's {@code ptx_obj.size} is {@code
 * chunk.length + 1} because GCC uses {@code sizeof} of the string literal. {@code ptx_objs} lists
 * the linked chunks, then the table chunks.
 *
 * @param layout the registration word and data layout
 * @param requiresMask the OpenMP requires mask (first data word with {@link
 *     Layout#requiresMask()}); 0 otherwise
 * @param disabled GCC 13+ dropped the image (reverse offload on sm_30): the wrapper is empty and
 *     registers nothing
 */
public record NvptxImage(
    List<byte[]> ptxChunks,
    List<String> variables,
    List<NvptxFunction> functions,
    List<String> indirectFunctions,
    List<PtxTableChunk> tableChunks,
    Layout layout,
    int requiresMask,
    boolean disabled)
    implements DeviceImage {
  /**
   * The registration of one GCC major's nvptx image.
   *
   * @param version the {@code GOMP_offload_register_ver} word
   * @param requiresMask the data starts with {@code uintptr_t omp_requires_mask} (13+)
   * @param indirectFunctions the data ends with {@code unsigned ind_fn_num} and the C file has
   *     {@code ind_func_mappings} (14+)
   */
  public record Layout(int version, boolean requiresMask, boolean indirectFunctions) {
    /** GCC 12's: version 0x10001, {@code nvptx_tdata target_data}. */
    public static final Layout GCC12 = new Layout(0x10001, false, false);

    /** The C (and symbol) name of the data: {@code target_data} (12) or {@code nvptx_data}. */
    public String dataName() {
      return requiresMask ? "nvptx_data" : "target_data";
    }
  }

  /** Copies the lists so the record stays immutable. */
  public NvptxImage {
    ptxChunks = List.copyOf(Objects.requireNonNull(ptxChunks, "ptxChunks"));
    variables = List.copyOf(Objects.requireNonNull(variables, "variables"));
    functions = List.copyOf(Objects.requireNonNull(functions, "functions"));
    indirectFunctions = List.copyOf(Objects.requireNonNull(indirectFunctions, "indirectFunctions"));
    tableChunks = List.copyOf(Objects.requireNonNull(tableChunks, "tableChunks"));
    Objects.requireNonNull(layout, "layout");
    if (!layout.indirectFunctions() && !indirectFunctions.isEmpty()) {
      throw new IllegalArgumentException("indirect functions in a layout without them");
    }
  }

  /** A GCC 12 image. */
  public NvptxImage(List<byte[]> ptxChunks, List<String> variables, List<NvptxFunction> functions) {
    this(ptxChunks, variables, functions, List.of(), List.of(), Layout.GCC12, 0, false);
  }

  /** The image GCC writes for {@code -foffload-abi=ilp32}: no PTX, no functions, no variables. */
  public static NvptxImage empty() {
    return new NvptxImage(List.of(), List.of(), List.of());
  }

  /** This image dropped by mkoffload: nothing is registered. */
  public NvptxImage asDisabled() {
    return new NvptxImage(
        ptxChunks,
        variables,
        functions,
        indirectFunctions,
        tableChunks,
        layout,
        requiresMask,
        true);
  }

  /** The chunks {@code ptx_objs} lists: the linked ones, then the table chunks. */
  public List<byte[]> allChunks() {
    if (tableChunks.isEmpty()) {
      return ptxChunks;
    }
    List<byte[]> all = new java.util.ArrayList<>(ptxChunks);
    tableChunks.forEach(t -> all.add(t.bytes()));
    return all;
  }

  @Override
  public ImageCounts counts() {
    return ImageCounts.of(this);
  }
}
