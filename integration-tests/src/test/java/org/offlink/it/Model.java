package org.offlink.it;

import java.util.Arrays;
import java.util.List;

/** The offloading programming model of a corpus program: the flags that enable it. */
enum Model {
  OPENMP("openmp", List.of("-fopenmp")),
  OPENACC("openacc", List.of("-fopenacc")),
  /** Both at once; GCC 12's mkoffload rejects such a link. */
  BOTH("both", List.of("-fopenmp", "-fopenacc"));

  private final String descriptorName;
  private final List<String> flags;

  Model(String descriptorName, List<String> flags) {
    this.descriptorName = descriptorName;
    this.flags = flags;
  }

  /** The flags passed to every compile and link. */
  List<String> flags() {
    return flags;
  }

  /** The model named {@code name} in a {@code build.properties}. */
  static Model fromDescriptor(String name) {
    return Arrays.stream(values())
        .filter(m -> m.descriptorName.equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown model '" + name + "'"));
  }
}
