package org.offlink.streamer.inspect;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * GCC 12's {@code struct gcn_image_desc}, decoded.
 *
 * <pre>
 * offset size field (x86-64, 32 bytes)
 *  0     8    const struct gcn_image *gcn_image    gcn_image = { size_t size; void *image; } (16)
 *  8     4    unsigned kernel_count
 * 16     8    const struct hsa_kernel_description *kernel_infos
 * 24     4    unsigned global_variable_count
 *
 * GCC 13+ ({@code gcn_data}) put the requires mask before it; GCC 14+ insert {@code unsigned
 * ind_func_count} at 24, moving global_variable_count to 28 (see {@link TargetDataLayout}).
 *
 * hsa_kernel_description (32 bytes): 0 name ptr; 8 int oacc_dims[3]; 20 int sgpr; 24 int vgpr
 * </pre>
 */
public record GcnTargetData(
    long address,
    OptionalInt version,
    byte[] image,
    List<GcnKernelEntry> kernels,
    long variableCount,
    LayoutFields fields)
    implements RegisteredImage {
  /** Size of the structure. */
  public static final int SIZE = 32;

  /** Copies the fields. */
  public GcnTargetData {
    Objects.requireNonNull(version, "version");
    image = image.clone();
    kernels = List.copyOf(kernels);
    Objects.requireNonNull(fields, "fields");
  }

  /** A GCC 12 {@code target_data}. */
  public GcnTargetData(
      long address,
      OptionalInt version,
      byte[] image,
      List<GcnKernelEntry> kernels,
      long variableCount) {
    this(address, version, image, kernels, variableCount, LayoutFields.GCC12);
  }

  @Override
  public byte[] image() {
    return image.clone();
  }

  @Override
  public String target() {
    return "amdgcn-amdhsa";
  }

  @Override
  public int deviceType() {
    return 8;
  }

  /** SHA-256 of the HSACO. */
  public String sha256() {
    return Sha256.hex(image);
  }

  /** The kernels libgomp pairs with host functions (without the constructor tables). */
  public List<GcnKernelEntry> offloadKernels() {
    return kernels.stream().filter(k -> !k.isConstructorTable()).toList();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GcnTargetData g
        && g.address == address
        && g.version.equals(version)
        && Arrays.equals(g.image, image)
        && g.kernels.equals(kernels)
        && g.variableCount == variableCount
        && g.fields.equals(fields);
  }

  @Override
  public int hashCode() {
    return Objects.hash(address, version, kernels, variableCount, fields) * 31
        + Arrays.hashCode(image);
  }

  @Override
  public String toString() {
    return "GcnTargetData[" + image.length + " bytes, " + kernels.size() + " kernels]";
  }
}
