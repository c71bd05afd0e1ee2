package org.offlink.bridge.gcc;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What lto-wrapper hands one target's mkoffload, typed (LW:950-990): the output, the offload
 * objects, the forwarded options, the dump base and the target's {@code -foffload-options} words,
 * with what mkoffload reads from them (the ABI, OpenMP or OpenACC, {@code -save-temps}, {@code -v},
 * GCC 15's host ABI options) as values. In one JVM this is the whole boundary ({@link
 * OffloadOptions#of}); {@link #argv} renders GCC's command line only where one is needed: the
 * {@code -v} echo, the response file and a mkoffload run as a program.
 *
 * @param output the object mkoffload writes ({@code -o})
 * @param inputs the offload objects, as spelled on the command line (maybe {@code lib.a@0xOFF})
 * @param compilerOptions the merged IL options and the link's diagnostic options, as forwarded
 * @param dumpbase {@code -dumpbase}: {@code <dumppfx>x<target>}
 * @param targetOptions the words of the {@code -foffload-options} that apply to this target (the
 *     user's text: mkoffload reads its own options among them, as GCC's does)
 * @param abi the {@code -foffload-abi=} value among the merged options, as spelled
 * @param openmp {@code -fopenmp} is among the merged options
 * @param openacc {@code -fopenacc} is among the merged options
 * @param abiHostOpts every {@code -foffload-abi-host-opts=} value among the merged options
 * @param saveTemps {@code -save-temps}
 * @param verbose {@code -v}
 */
public record MkoffloadArguments(
    String output,
    List<String> inputs,
    List<String> compilerOptions,
    String dumpbase,
    List<String> targetOptions,
    Optional<String> abi,
    boolean openmp,
    boolean openacc,
    List<String> abiHostOpts,
    boolean saveTemps,
    boolean verbose) {
  /** Copies and checks the fields. */
  public MkoffloadArguments {
    Objects.requireNonNull(output, "output");
    inputs = List.copyOf(inputs);
    compilerOptions = List.copyOf(compilerOptions);
    Objects.requireNonNull(dumpbase, "dumpbase");
    targetOptions = List.copyOf(targetOptions);
    Objects.requireNonNull(abi, "abi");
    abiHostOpts = List.copyOf(abiHostOpts);
  }

  /**
   * GCC 12's mkoffload command line, {@code program} first:
   *
   * <pre>
   * mkoffload [-save-temps] [-v] -o OUT  OFFLOAD-OBJECTS...  IL-OPTIONS  DIAG-OPTIONS
   *           -dumpbase DUMPPFXxTARGET  -foffload-options(IL)  -foffload-options(link)
   * </pre>
   */
  public List<String> argv(String program) {
    List<String> argv = new ArrayList<>();
    argv.add(program);
    if (saveTemps) {
      argv.add("-save-temps");
    }
    if (verbose) {
      argv.add("-v");
    }
    argv.add("-o");
    argv.add(output);
    argv.addAll(inputs);
    argv.addAll(compilerOptions);
    argv.add("-dumpbase");
    argv.add(dumpbase);
    argv.addAll(targetOptions);
    return argv;
  }
}
