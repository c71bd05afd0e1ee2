package org.offlink.bridge.gcc;

import java.util.Optional;
import java.util.OptionalLong;
import org.offlink.bridge.tool.OffloadTarget;

/**
 * What stock GCC does not tell at link time: whether the libgomp the program links against can read
 * the images this GCC writes (delta §3.7, docs/gcc-versions.md). libgomp refuses an image whose
 * registration word asks for a newer {@code GOMP_VERSION} ("Library too old for offload"); the GCN
 * plugin accepts only its own {@code GOMP_VERSION_GCN}; and a libgomp of GCC 14+ reads a GCC 13 gcn
 * image's variable count from the wrong place, so its {@code declare target} variables cannot be
 * mapped.
 */
public final class RuntimeCompatibility {
  private RuntimeCompatibility() {}

  /**
   * One line naming both versions when {@code lib} will not run {@code target}'s image of GCC
   * {@code gccMajor} as written, else empty.
   *
   * @param word the image's {@code GOMP_offload_register_ver} word
   * @param variables the image's {@code declare target} variable count, when known
   */
  public static Optional<String> check(
      OffloadTarget target, int gccMajor, int word, OptionalLong variables, LibgompRuntime lib) {
    int imageLib = word >>> 16;
    int imageDevice = word & 0xffff;
    LibgompRuntime.Generation g = lib.generation();
    String image = "the " + target.triplet() + " image of this GCC " + gccMajor + " link";
    if (imageLib > g.gompVersion()) {
      return Optional.of(
          image
              + " needs libgomp GOMP_VERSION "
              + imageLib
              + ", but the link resolves "
              + lib.describe()
              + ", which has "
              + g.gompVersion()
              + ": the program will stop with 'Library too old for offload'");
    }
    if (target == OffloadTarget.AMDGCN && imageDevice != g.gcnPluginVersion()) {
      return Optional.of(
          image
              + " has GOMP_VERSION_GCN "
              + imageDevice
              + ", but the GCN plugin of "
              + lib.describe()
              + " accepts only "
              + g.gcnPluginVersion()
              + ": the program will fail with 'Offload data incompatible with GCN plugin'");
    }
    if (target == OffloadTarget.AMDGCN
        && imageLib == 2
        && g.gompVersion() >= 3
        && (variables.isEmpty() || variables.getAsLong() > 0)) {
      String which =
          variables.isPresent()
              ? "its " + variables.getAsLong() + " declare target variable(s)"
              : "any declare target variables it has";
      return Optional.of(
          image
              + " is read by "
              + lib.describe()
              + " with a later layout that misses "
              + which
              + ": the program will fail with 'Cannot map target functions or variables'");
    }
    return Optional.empty();
  }
}
