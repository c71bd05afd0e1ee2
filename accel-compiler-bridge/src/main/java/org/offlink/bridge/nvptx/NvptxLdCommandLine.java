package org.offlink.bridge.nvptx;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.offlink.bridge.nvptx.NvptxLinker.Unsupported;

/**
 * An {@code nvptx-none-ld} command line as the program's {@code getopt_long("L:l:o:v", ...)} reads
 * it (GNU getopt: options and inputs in any order, {@code --} ends the options, a short option's
 * value is the rest of its argument or the next one). Only what offlink reproduces is accepted;
 * anything else ({@code -v}, {@code --help}, an unknown or abbreviated option, a second {@code -o})
 * is {@link Unsupported}, so that the real program runs and says what it says.
 *
 * @param output {@code -o}, else {@code a.out}
 * @param libraryPaths {@code -L}, in order, consecutive repeats dropped (the program's {@code
 *     unique()})
 * @param libraries {@code -l}, in order
 * @param inputs every other argument, in order
 * @param ignoredUnresolved the {@code --ignore-unresolved-symbol} names
 */
record NvptxLdCommandLine(
    String output,
    List<String> libraryPaths,
    List<String> libraries,
    List<String> inputs,
    Set<String> ignoredUnresolved) {
  /** Copies the lists. */
  NvptxLdCommandLine {
    Objects.requireNonNull(output, "output");
    libraryPaths = List.copyOf(libraryPaths);
    libraries = List.copyOf(libraries);
    inputs = List.copyOf(inputs);
    ignoredUnresolved = Set.copyOf(ignoredUnresolved);
  }

  /**
   * Reads {@code args} (the program's arguments, without its name); {@code longOptions}: the
   * program has {@code --hash-style} (ignored) and {@code --ignore-unresolved-symbol}, as
   * nvptx-tools 0.20240810 and later do.
   */
  static NvptxLdCommandLine parse(List<String> args, boolean longOptions) throws Unsupported {
    String output = null;
    List<String> paths = new ArrayList<>();
    List<String> libraries = new ArrayList<>();
    List<String> inputs = new ArrayList<>();
    Set<String> ignored = new TreeSet<>();
    boolean options = true;
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (!options || !a.startsWith("-") || a.equals("-")) {
        inputs.add(a);
        continue;
      }
      if (a.equals("--")) {
        options = false;
        continue;
      }
      if (a.startsWith("--")) {
        String name = a.substring(2);
        int eq = name.indexOf('=');
        String key = eq < 0 ? name : name.substring(0, eq);
        if (!longOptions
            || (!key.equals("hash-style") && !key.equals("ignore-unresolved-symbol"))) {
          throw new Unsupported("option " + a);
        }
        String value;
        if (eq >= 0) {
          value = name.substring(eq + 1);
        } else if (i + 1 < args.size()) {
          value = args.get(++i);
        } else {
          throw new Unsupported("option " + a + " without its argument");
        }
        if (key.equals("ignore-unresolved-symbol")) {
          ignored.add(value);
        }
        continue;
      }
      char c = a.charAt(1);
      if (c != 'o' && c != 'L' && c != 'l') {
        throw new Unsupported("option " + a);
      }
      String value;
      if (a.length() > 2) {
        value = a.substring(2);
      } else if (i + 1 < args.size()) {
        value = args.get(++i);
      } else {
        throw new Unsupported("option " + a + " without its argument");
      }
      switch (c) {
        case 'o' -> {
          if (output != null) {
            throw new Unsupported("multiple output files");
          }
          output = value;
        }
        case 'L' -> {
          if (paths.isEmpty() || !paths.get(paths.size() - 1).equals(value)) {
            paths.add(value);
          }
        }
        default -> libraries.add(value);
      }
    }
    return new NvptxLdCommandLine(
        output == null ? "a.out" : output, paths, libraries, inputs, ignored);
  }
}
