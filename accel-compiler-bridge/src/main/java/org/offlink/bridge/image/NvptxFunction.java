package org.offlink.bridge.image;

import java.util.Objects;

/**
 * One {@code //:FUNC_MAP} record of linked PTX: the kernel's PTX name ({@code $} for {@code .}) and
 * its OpenACC launch dimensions (gang, worker, vector; 0 where the record has none, as GCC's C
 * initializer leaves {@code unsigned short dim[3]}).
 */
public record NvptxFunction(String name, int gang, int worker, int vector) {
  /** Validates that every dimension fits libgomp's {@code unsigned short}. */
  public NvptxFunction {
    Objects.requireNonNull(name, "name");
    for (int d : new int[] {gang, worker, vector}) {
      if (d < 0 || d > 0xffff) {
        throw new IllegalArgumentException("launch dimension out of unsigned short range: " + d);
      }
    }
  }
}
