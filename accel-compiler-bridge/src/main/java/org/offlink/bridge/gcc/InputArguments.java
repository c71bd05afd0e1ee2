package org.offlink.bridge.gcc;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Which of mkoffload's forwarded arguments are input files (objects, archive members {@code
 * lib.a@0x...}): every argument not starting with {@code -} that is not the value of an option
 * taking a separate argument.
 */
public final class InputArguments {
  /** GCC options whose value is the next argument, which is therefore not an input. */
  private static final Set<String> SEPARATE_ARGUMENT =
      Set.of(
          "-dumpbase",
          "-dumpdir",
          "-dumpbase-ext",
          "-Xassembler",
          "-Xlinker",
          "-Xpreprocessor",
          "-include",
          "-isystem",
          "-I",
          "-L",
          "-o",
          "-x");

  private InputArguments() {}

  /** The indices of the inputs in {@code args}, in order. */
  public static List<Integer> indices(List<String> args) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (SEPARATE_ARGUMENT.contains(arg)) {
        i++;
      } else if (!arg.startsWith("-")) {
        out.add(i);
      }
    }
    return out;
  }
}
