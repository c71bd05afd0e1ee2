package org.offlink.bridge.gcc;

import java.util.ArrayList;
import java.util.List;

/** mkoffload options as lto-wrapper would pass them, for the image builders' tests. */
public final class OffloadOptionsFixture {
  private OffloadOptionsFixture() {}

  /**
   * {@code [-save-temps] [-v] -o <dumpbase>.o <inputs> -foffload-abi=<abi> -fopenmp|-fopenacc
   * -dumpbase <dumpbase> <targetOptions>}, read as mkoffload reads its command line.
   */
  public static OffloadOptions of(
      List<String> inputs,
      OffloadAbi abi,
      boolean openmp,
      List<String> targetOptions,
      boolean saveTemps,
      boolean verbose,
      String dumpbase)
      throws OffloadOptionException {
    List<String> args = new ArrayList<>();
    if (saveTemps) {
      args.add("-save-temps");
    }
    if (verbose) {
      args.add("-v");
    }
    args.add("-o");
    args.add(dumpbase + ".o");
    args.addAll(inputs);
    args.add("-foffload-abi=" + abi.spelling());
    args.add(openmp ? "-fopenmp" : "-fopenacc");
    args.add("-dumpbase");
    args.add(dumpbase);
    args.addAll(targetOptions);
    return OffloadOptions.parse(args);
  }
}
