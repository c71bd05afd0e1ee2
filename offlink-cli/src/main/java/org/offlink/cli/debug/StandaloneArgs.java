package org.offlink.cli.debug;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The arguments of {@code offlink lto-wrapper} and {@code offlink mkoffload}, read by hand so that
 * GCC options ({@code -fopenmp}, {@code -O2}, {@code -foffload-options=...}) pass untouched:
 * offlink's own words ({@code --gcc G}, {@code --target T}, {@code -o F}, {@code -march=A}) are
 * taken out, everything else stays in order for gcc.
 */
record StandaloneArgs(
    String gcc,
    Optional<String> target,
    Optional<String> output,
    Optional<String> march,
    List<String> gccArgs) {
  /** The default driver: Debian 12's. */
  static final String DEFAULT_GCC = "gcc-12";

  StandaloneArgs {
    gccArgs = List.copyOf(gccArgs);
  }

  /**
   * Splits {@code args}; {@code ownOutput} says whether {@code -o} is ours (mkoffload) or gcc's.
   *
   * @throws IllegalArgumentException for a word missing its value
   */
  static StandaloneArgs parse(List<String> args, boolean ownOutput) {
    String gcc = DEFAULT_GCC;
    Optional<String> target = Optional.empty();
    Optional<String> output = Optional.empty();
    Optional<String> march = Optional.empty();
    List<String> rest = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.equals("--gcc") || a.equals("--target") || (ownOutput && a.equals("-o"))) {
        if (i + 1 == args.size()) {
          throw new IllegalArgumentException(a + ": expected a value after it, found none");
        }
        String v = args.get(++i);
        switch (a) {
          case "--gcc" -> gcc = v;
          case "--target" -> target = Optional.of(v);
          default -> output = Optional.of(v);
        }
      } else if (a.startsWith("--gcc=")) {
        gcc = a.substring("--gcc=".length());
      } else if (a.startsWith("--target=")) {
        target = Optional.of(a.substring("--target=".length()));
      } else if (ownOutput && a.startsWith("-march=")) {
        march = Optional.of(a.substring("-march=".length()));
      } else {
        rest.add(a);
      }
    }
    return new StandaloneArgs(gcc, target, output, march, rest);
  }
}
