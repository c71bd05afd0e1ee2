package org.offlink.bridge.partition;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.offlink.bridge.gcc.InputArguments;

/**
 * Derives a partition's accel-driver command lines from the whole-program one that mkoffload would
 * run, so that every option (the {@code -foffload-options} payload, {@code -march}, the release's
 * extra flags) reaches the partitions exactly as it reaches GCC's single compile.
 */
public final class PartitionArgv {
  private PartitionArgv() {}

  /**
   * {@code whole} (argv[0] the driver) with {@code flag} (e.g. {@code -c}; none when empty) right
   * after argv[0], its inputs replaced by {@code inputs} (placed where its first input was), every
   * {@code -dumpbase} value replaced by {@code dumpbase} and the {@code -o} value by {@code out}.
   */
  public static List<String> compile(
      List<String> whole, String flag, List<String> inputs, String dumpbase, String out) {
    List<String> argv = replaceInputs(whole, inputs, false);
    if (!flag.isEmpty()) {
      argv.add(1, flag);
    }
    return replaceValues(argv, dumpbase, out);
  }

  /**
   * {@code whole} as a link of {@code objects}: its inputs replaced by the objects and {@code
   * -xlto} (which would make the driver read them as IR) dropped; the rest unchanged.
   */
  public static List<String> link(List<String> whole, List<String> objects) {
    return replaceInputs(whole, objects, true);
  }

  /** {@code argv} with argv[0] replaced by {@code label}: a recipe line for a cache key. */
  public static List<String> labelled(String label, List<String> argv) {
    List<String> out = new ArrayList<>(argv);
    out.set(0, label);
    return out;
  }

  private static List<String> replaceInputs(
      List<String> whole, List<String> replacement, boolean dropXlto) {
    List<Integer> inputs = InputArguments.indices(whole.subList(1, whole.size()));
    Set<Integer> isInput = new HashSet<>(inputs);
    List<String> out = new ArrayList<>();
    out.add(whole.get(0));
    for (int i = 1; i < whole.size(); i++) {
      String a = whole.get(i);
      if (isInput.contains(i - 1)) {
        if (inputs.get(0) == i - 1) {
          out.addAll(replacement);
        }
      } else if (!(dropXlto && a.equals("-xlto"))) {
        out.add(a);
      }
    }
    if (inputs.isEmpty()) {
      out.addAll(replacement);
    }
    return out;
  }

  private static List<String> replaceValues(List<String> argv, String dumpbase, String out) {
    List<String> result = new ArrayList<>(argv);
    for (int i = 1; i + 1 < result.size(); i++) {
      if (result.get(i).equals("-dumpbase")) {
        result.set(++i, dumpbase);
      } else if (result.get(i).equals("-o")) {
        result.set(++i, out);
      }
    }
    return result;
  }
}
