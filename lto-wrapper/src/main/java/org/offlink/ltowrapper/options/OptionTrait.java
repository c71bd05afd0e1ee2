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
  /**
   * Merged like {@code -fopenmp} and forwarded by {@code append_compiler_options} from GCC 13 on
   * ({@code -f[asynchronous-]unwind-tables}, delta §4.1 L3); ignored by GCC 12.
   */
  IL_FORWARD_SINCE_13,
  /** Forwarded from link options to mkoffload by {@code append_diag_options} (LW:760). */
  DIAG
}
