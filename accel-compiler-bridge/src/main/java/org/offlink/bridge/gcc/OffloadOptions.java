package org.offlink.bridge.gcc;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The image builders' input, i.e. mkoffload's argv after {@code @file} expansion: {@code forwarded}
 * holds every argument except the {@code -o X} pair in original order (GCC passes them all to the
 * accel compiler: inputs, {@code -foffload-abi=}, {@code -fopenmp}, {@code -dumpbase}, the {@code
 * -foffload-options} payload, ...); the other fields are what GCC scans out of them. {@code
 * abiHostOpts} is GCC 15's {@code -foffload-abi-host-opts=} value (the host compile's ABI flag).
 */
public record OffloadOptions(
    List<String> forwarded,
    Optional<String> output,
    OffloadAbi abi,
    boolean openmp,
    boolean saveTemps,
    boolean verbose,
    String dumppfx,
    Optional<String> abiHostOpts) {
  private static final String ABI_HOST_OPTS = "-foffload-abi-host-opts=";

  /** Copies and checks the fields. */
  public OffloadOptions {
    forwarded = List.copyOf(Objects.requireNonNull(forwarded, "forwarded"));
    Objects.requireNonNull(output, "output");
    Objects.requireNonNull(abi, "abi");
    Objects.requireNonNull(dumppfx, "dumppfx");
    Objects.requireNonNull(abiHostOpts, "abiHostOpts");
  }

  /**
   * Scans mkoffload arguments like GCC 12: {@code -foffload-abi=lp64|ilp32}, exact {@code
   * -fopenmp}/{@code -fopenacc} (exactly one required), {@code -save-temps}, {@code -v}, the last
   * {@code -dumpbase X}; dumppfx defaults to the {@code -o} name.
   */
  public static OffloadOptions parse(List<String> args) throws OffloadOptionException {
    List<String> forwarded = new ArrayList<>();
    String output = null;
    String dumpbase = null;
    OffloadAbi abi = null;
    boolean omp = false;
    boolean acc = false;
    boolean saveTemps = false;
    boolean verbose = false;
    String hostOpts = null;
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.equals("-o") && i + 1 < args.size()) {
        output = args.get(++i);
        continue;
      }
      forwarded.add(a);
      if (a.startsWith(ABI_HOST_OPTS)) {
        if (hostOpts != null) {
          throw new OffloadOptionException("'-foffload-abi-host-opts' specified multiple times");
        }
        hostOpts = a.substring(ABI_HOST_OPTS.length());
      } else if (a.startsWith("-foffload-abi=")) {
        abi = parseAbi(a.substring("-foffload-abi=".length()));
      } else if (a.equals("-fopenmp")) {
        omp = true;
      } else if (a.equals("-fopenacc")) {
        acc = true;
      } else if (a.equals("-save-temps")) {
        saveTemps = true;
      } else if (a.equals("-v")) {
        verbose = true;
      } else if (a.equals("-dumpbase") && i + 1 < args.size()) {
        dumpbase = args.get(++i);
        forwarded.add(dumpbase);
      }
    }
    if (omp == acc) {
      throw new OffloadOptionException("either -fopenacc or -fopenmp must be set");
    }
    if (abi == null) {
      // GCC 12 reaches gcc_unreachable() here (ICE, exit 4); a clear error is kinder.
      throw new OffloadOptionException("missing -foffload-abi=lp64 or -foffload-abi=ilp32");
    }
    String pfx = dumpbase != null ? dumpbase : output;
    if (pfx == null) {
      throw new OffloadOptionException("neither -dumpbase nor -o given");
    }
    return new OffloadOptions(
        forwarded,
        Optional.ofNullable(output),
        abi,
        omp,
        saveTemps,
        verbose,
        pfx,
        Optional.ofNullable(hostOpts));
  }

  private static OffloadAbi parseAbi(String value) throws OffloadOptionException {
    for (OffloadAbi abi : OffloadAbi.values()) {
      if (abi.spelling().equals(value)) {
        return abi;
      }
    }
    throw new OffloadOptionException("unrecognizable argument of option -foffload-abi=");
  }

  /**
   * Builds the argument list lto-wrapper would pass: {@code [-save-temps] [-v] -o <output> <inputs>
   * -foffload-abi=<abi> -fopenmp|-fopenacc -dumpbase <dumpbase> <targetOptions>}.
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
    return parse(args);
  }

  /** The derived file names. */
  public MkoffloadDumpNames names() {
    return new MkoffloadDumpNames(dumppfx);
  }
}
