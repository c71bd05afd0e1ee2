package org.offlink.bridge.gcc;

/** The {@code -foffload-abi=} value; only LP64 produces a device image in GCC 12 (PR 65099). */
public enum OffloadAbi {
  /** {@code lp64}: host compile with {@code -m64}. */
  LP64("lp64", "-m64"),
  /** {@code ilp32}: no accel compile, empty image. */
  ILP32("ilp32", "-m32");

  private final String spelling;
  private final String hostFlag;

  OffloadAbi(String spelling, String hostFlag) {
    this.spelling = spelling;
    this.hostFlag = hostFlag;
  }

  /** The option value as spelled on the command line. */
  public String spelling() {
    return spelling;
  }

  /** {@code -m64} or {@code -m32}, passed to the accel and host compilers. */
  public String hostFlag() {
    return hostFlag;
  }
}
