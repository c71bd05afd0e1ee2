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
 * hsa_kernel_description (32 bytes): 0 name ptr; 8 int oacc_dims[3]; 20 int sgpr; 24 int vgpr
 * </pre>
 */
public record GcnTargetData(
    long address,
    OptionalInt version,
    byte[] image,
    List<GcnKernelEntry> kernels,
    long variableCount)
    implements RegisteredImage {
  /** Size of the structure. */
  public static final int SIZE = 32;

  /** Copies the fields. */
  public GcnTargetData {
    Objects.requireNonNull(version, "version");
    image = image.clone();
    kernels = List.copyOf(kernels);
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
        && g.variableCount == variableCount;
  }

  @Override
  public int hashCode() {
    return Objects.hash(address, version, kernels, variableCount) * 31 + Arrays.hashCode(image);
  }

  @Override
  public String toString() {
    return "GcnTargetData[" + image.length + " bytes, " + kernels.size() + " kernels]";
  }
}
