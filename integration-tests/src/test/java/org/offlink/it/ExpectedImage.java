package org.offlink.it;

import java.util.Objects;

/**
 * One offload image a corpus program registers per target: the module registering it (the
 * executable {@code prog} or a shared library file name) and its host table counts.
 */
record ExpectedImage(String module, int hostFuncs, int hostVars) {
  /** Checks the fields. */
  ExpectedImage {
    Objects.requireNonNull(module, "module");
    if (module.isEmpty() || hostFuncs < 0 || hostVars < 0) {
      throw new IllegalArgumentException("bad expected image " + module + ":" + hostFuncs);
    }
  }

  /** Parses {@code module:funcs:vars}. */
  static ExpectedImage parse(String text) {
    String[] parts = text.split(":", -1);
    if (parts.length != 3) {
      throw new IllegalArgumentException("expected module:funcs:vars, found '" + text + "'");
    }
    return new ExpectedImage(parts[0], Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
  }
}
