package org.offlink.ltowrapper.options;

/**
 * Option properties that decide forwarding: GCC's {@code CL_*} classes plus lto-wrapper's own
 * forwarding lists.
 */
public enum OptionTrait {
  /** {@code CL_TARGET}: a machine option ({@code -m...}). */
  TARGET,
  /** {@code CL_COMMON}. */
  COMMON,
  /** {@code CL_DRIVER}. */
  DRIVER,
  /** {@code CL_LTO}. */
  LTO,
  /** Forwarded from merged IL options by {@code append_compiler_options} (LW:690). */
  IL_FORWARD,
  /** Forwarded from link options to mkoffload by {@code append_diag_options} (LW:760). */
  DIAG
}
