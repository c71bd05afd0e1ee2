package org.offlink.bridge.gcc;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.offlink.runtime.EnumLookup;

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
   * {@code -dumpbase X}; dumppfx defaults to the {@code -o} name. The command line of a mkoffload
   * run as a program.
   */
  public static OffloadOptions parse(List<String> args) throws OffloadOptionException {
    Scan scan = new Scan();
    scan.words(args);
    return scan.finish();
  }

  /**
   * The options of {@code arguments}, lto-wrapper's in-process request, without a command line: the
   * typed values are taken as they are and only the target's {@code -foffload-options} words, the
   * user's text, are read the way {@link #parse} reads them. The same options as {@link #parse} of
   * {@link MkoffloadArguments#argv}, with the same errors.
   */
  public static OffloadOptions of(MkoffloadArguments arguments) throws OffloadOptionException {
    Scan scan = new Scan();
    if (arguments.saveTemps()) {
      scan.forwarded.add("-save-temps");
      scan.saveTemps = true;
    }
    if (arguments.verbose()) {
      scan.forwarded.add("-v");
      scan.verbose = true;
    }
    scan.output = arguments.output();
    scan.forwarded.addAll(arguments.inputs());
    scan.forwarded.addAll(arguments.compilerOptions());
    for (String host : arguments.abiHostOpts()) {
      scan.hostOpts(host);
    }
    if (arguments.abi().isPresent()) {
      scan.abi = parseAbi(arguments.abi().get());
    }
    scan.omp = arguments.openmp();
    scan.acc = arguments.openacc();
    scan.forwarded.add("-dumpbase");
    scan.forwarded.add(arguments.dumpbase());
    scan.dumpbase = arguments.dumpbase();
    scan.words(arguments.targetOptions());
    return scan.finish();
  }

  /** GCC 12 mkoffload's reading of its argv, word by word. */
  private static final class Scan {
    final List<String> forwarded = new ArrayList<>();
    String output;
    String dumpbase;
    OffloadAbi abi;
    boolean omp;
    boolean acc;
    boolean saveTemps;
    boolean verbose;
    String hostOpts;

    void words(List<String> args) throws OffloadOptionException {
      for (int i = 0; i < args.size(); i++) {
        String a = args.get(i);
        if (a.equals("-o") && i + 1 < args.size()) {
          output = args.get(++i);
          continue;
        }
        forwarded.add(a);
        if (a.startsWith(ABI_HOST_OPTS)) {
          hostOpts(a.substring(ABI_HOST_OPTS.length()));
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
    }

    void hostOpts(String value) throws OffloadOptionException {
      if (hostOpts != null) {
        throw new OffloadOptionException("'-foffload-abi-host-opts' specified multiple times");
      }
      hostOpts = value;
    }

    OffloadOptions finish() throws OffloadOptionException {
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
  }

  private static OffloadAbi parseAbi(String value) throws OffloadOptionException {
    return EnumLookup.byKey(OffloadAbi.values(), OffloadAbi::spelling, value)
        .orElseThrow(
            () -> new OffloadOptionException("unrecognizable argument of option -foffload-abi="));
  }

  /** The derived file names. */
  public MkoffloadDumpNames names() {
    return new MkoffloadDumpNames(dumppfx);
  }
}
