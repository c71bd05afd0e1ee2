package org.offlink.ltowrapper.options;

/** Who consumes an option lto-wrapper sees. */
public enum OptionScope {
  /** Interpreted by lto-wrapper itself (output name, dump names, verbosity, LTO mode). */
  OURS,
  /** Passed on to the host driver for WPA/LTRANS. */
  FORWARD_TO_HOST,
  /** Passed on to mkoffload and the accel compilers. */
  FORWARD_TO_ACCEL
}
