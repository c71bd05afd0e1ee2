package org.offlink.streamer.inspect;

import org.offlink.runtime.EnumLookup;

/** LLVM OffloadBinary image kinds ({@code u16} in each entry); {@link #UNKNOWN} keeps the raw. */
public enum ImageKind {
  /** No image. */
  NONE(0, ""),
  /** Relocatable object. */
  OBJECT(1, "o"),
  /** LLVM bitcode. */
  BITCODE(2, "bc"),
  /** CUDA cubin. */
  CUBIN(3, "cubin"),
  /** CUDA fat binary. */
  FATBINARY(4, "fatbin"),
  /** PTX text. */
  PTX(5, "s"),
  /** SPIR-V. */
  SPIRV(6, "spv"),
  /** A value this model does not name. */
  UNKNOWN(-1, "bin");

  private final int raw;
  private final String extension;

  ImageKind(int raw, String extension) {
    this.raw = raw;
    this.extension = extension;
  }

  /** The stored value, -1 for {@link #UNKNOWN}. */
  public int raw() {
    return raw;
  }

  /** The file extension LLVM's packager uses for this kind. */
  public String extension() {
    return extension;
  }

  /** The kind for a stored value. */
  public static ImageKind fromRaw(int raw) {
    return EnumLookup.byCode(values(), ImageKind::raw, raw).orElse(UNKNOWN);
  }
}
