package org.offlink.it;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the GCC driver looks for lto-wrapper and {@code accel/<target>/mkoffload} first: nothing
 * for stock GCC, or a folder passed as {@code -B <dir>/}. The driver puts a {@code -B} folder at
 * the head of COMPILER_PATH; collect2 takes lto-wrapper from there and lto-wrapper finds {@code
 * accel/<target>/mkoffload} along COMPILER_PATH (checked by {@code ToolDirPlumbingIT}). Whatever
 * the folder lacks falls through to the stock tools.
 */
record ToolDir(String label, Optional<Path> directory, Map<String, String> environment) {
  /** Checks the fields. */
  ToolDir {
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(directory, "directory");
    environment = Map.copyOf(environment);
  }

  ToolDir(String label, Optional<Path> directory) {
    this(label, directory, Map.of());
  }

  /** Stock GCC: no {@code -B}. */
  static ToolDir stock() {
    return new ToolDir("stock", Optional.empty());
  }

  /** This folder with extra environment for the build (e.g. {@code OFFLINK_FLAGS}). */
  ToolDir withEnvironment(String name, String value) {
    Map<String, String> env = new java.util.HashMap<>(environment);
    env.put(name, value);
    return new ToolDir(label + " " + name + "=" + value, directory, env);
  }

  /** The driver options selecting this tool folder (the trailing slash matters to -B). */
  List<String> driverOptions() {
    return directory.map(d -> List.of("-B", d + "/")).orElse(List.of());
  }
}
