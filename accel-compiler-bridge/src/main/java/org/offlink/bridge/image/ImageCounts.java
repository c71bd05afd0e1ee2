package org.offlink.bridge.image;

/**
 * How many host-table entries a device image maps, as libgomp pairs them with the host's {@code
 * .gnu.offload_funcs} and {@code .gnu.offload_vars} at registration.
 *
 * @param functions offload functions (nvptx: {@code FUNC_MAP} entries; gcn: kernels other than
 *     {@code _init_array} and {@code _fini_array})
 * @param variables offload variables (nvptx: {@code VAR_MAP} entries; gcn: {@code
 *     global_variable_count})
 */
public record ImageCounts(long functions, long variables) {
  /** Rejects negative counts. */
  public ImageCounts {
    if (functions < 0 || variables < 0) {
      throw new IllegalArgumentException("negative count " + functions + "/" + variables);
    }
  }

  /** The counts of an nvptx image. */
  public static ImageCounts of(NvptxImage image) {
    return new ImageCounts(image.functions().size(), image.variables().size());
  }

  /** The counts of a gcn image (the two constructor/destructor kernels are not host entries). */
  public static ImageCounts of(GcnImage image) {
    long kernels =
        image.kernels().stream()
            .filter(k -> !k.name().equals("_init_array") && !k.name().equals("_fini_array"))
            .count();
    return new ImageCounts(kernels, image.globalVariableCount());
  }
}
