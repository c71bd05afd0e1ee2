package org.offlink.cli.debug;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;

/**
 * What GCC's driver would set for lto-wrapper, asked of the driver itself: {@code GCC -### -B
 * LIBEXEC/ OPTIONS... INPUTS...} prints (on stderr, without running anything) the variables it
 * exports to its children ({@code COLLECT_GCC}, {@code COLLECT_LTO_WRAPPER}, {@code
 * OFFLOAD_TARGET_NAMES}, {@code OFFLOAD_TARGET_DEFAULT}, {@code COMPILER_PATH}, {@code
 * LIBRARY_PATH}, and {@code COLLECT_GCC_OPTIONS} per step, the link's last) and the collect2 line,
 * whose {@code -pie}/{@code -shared} give the linker output kind the plugin would pass.
 *
 * @param variables the variables, sorted by name
 * @param linkerOutput {@code pie}, {@code dyn} or {@code exec}
 */
record DriverEnvironment(Map<String, String> variables, String linkerOutput) {
  private static final List<String> NAMES =
      List.of(
          "COLLECT_GCC",
          "COLLECT_LTO_WRAPPER",
          "OFFLOAD_TARGET_NAMES",
          "OFFLOAD_TARGET_DEFAULT",
          "COMPILER_PATH",
          "LIBRARY_PATH",
          "COLLECT_GCC_OPTIONS");

  DriverEnvironment {
    variables = Map.copyOf(variables);
  }

  /**
   * Asks {@code gcc} (a name on PATH or a path) with {@code libexec} as its {@code -B} folder.
   *
   * @throws IllegalArgumentException when the driver fails or prints no link step
   */
  static DriverEnvironment ask(
      ProcessRunner runner,
      String gcc,
      Path libexec,
      List<String> gccArgs,
      Map<String, String> env,
      Path cwd)
      throws IOException {
    List<String> argv = new ArrayList<>(List.of(gcc, "-###", "-B", libexec + "/"));
    argv.addAll(gccArgs);
    CommandResult r = runner.run(Command.of(argv, env, cwd).asProbe());
    if (r.exitStatus() != 0) {
      throw new IllegalArgumentException(
          gcc + " -### failed (exit status " + r.exitStatus() + "): " + firstLine(r.stderr()));
    }
    return parse(r.stderr(), gcc);
  }

  /** Parses the {@code -###} text of {@code gcc}. */
  static DriverEnvironment parse(String text, String gcc) {
    Map<String, String> vars = new TreeMap<>();
    String kind = null;
    for (String line : text.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0 && NAMES.contains(line.substring(0, eq))) {
        vars.put(line.substring(0, eq), line.substring(eq + 1)); // the last one wins
      } else if (line.contains("/collect2 ") || line.contains("\"collect2\"")) {
        kind = kind(line);
      }
    }
    if (kind == null || !vars.containsKey("COLLECT_GCC_OPTIONS")) {
      throw new IllegalArgumentException(
          gcc
              + " -###: expected a link step (collect2) and COLLECT_GCC_OPTIONS, found "
              + (kind == null ? "no collect2 line" : "no COLLECT_GCC_OPTIONS"));
    }
    return new DriverEnvironment(vars, kind);
  }

  private static String kind(String collect2Line) {
    List<String> words = List.of(collect2Line.trim().split("\\s+"));
    if (words.contains("-shared")) {
      return "dyn";
    }
    return words.contains("-pie") ? "pie" : "exec";
  }

  private static String firstLine(String text) {
    return text.lines().filter(l -> !l.isBlank()).findFirst().orElse("no message");
  }
}
