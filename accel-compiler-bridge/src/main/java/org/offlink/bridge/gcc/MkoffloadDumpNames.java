package org.offlink.bridge.gcc;

import java.util.List;
import java.util.Objects;

/**
 * GCC 12 mkoffload's file names derived from the dump prefix ({@code -dumpbase} value, else the
 * {@code -o} name), e.g. {@code ./x.xnvptx-none}: the C file {@code <pfx>.c}, the nvptx PTX file
 * {@code <pfx>.mkoffload}, the gcn intermediates {@code <pfx>.mkoffload.{1.s,2.s,hsaco}}, and the
 * response-file suffixes of each step.
 */
public record MkoffloadDumpNames(String dumppfx) {
  /** Response-file suffix of the accel compile. */
  public static final String GCC_ARGS = ".gcc_args";

  /** Response-file suffix of the gcn link step. */
  public static final String LD_ARGS = ".ld_args";

  /** Response-file suffix of the host compile. */
  public static final String GCCNATIVE_ARGS = ".gccnative_args";

  /** Checks the prefix. */
  public MkoffloadDumpNames {
    Objects.requireNonNull(dumppfx, "dumppfx");
  }

  /** {@code <pfx>.c}, also the host compile's {@code -dumpbase}. */
  public String cFile() {
    return dumppfx + ".c";
  }

  /** {@code <pfx>.mkoffload}: the nvptx PTX output and the accel {@code -dumpbase}. */
  public String mkoffload() {
    return dumppfx + ".mkoffload";
  }

  /**
   * How the accel compile names its dumps and its {@code output}, as both mkoffloads end its argv:
   * {@code -dumpdir "" -dumpbase <pfx>.mkoffload -dumpbase-ext "" -o <output>}.
   */
  public List<String> accelDumpOptions(String output) {
    return List.of("-dumpdir", "", "-dumpbase", mkoffload(), "-dumpbase-ext", "", "-o", output);
  }

  /** {@code <pfx>.mkoffload<suffix>}, e.g. {@code .1.s}. */
  public String mkoffload(String suffix) {
    return mkoffload() + suffix;
  }
}
