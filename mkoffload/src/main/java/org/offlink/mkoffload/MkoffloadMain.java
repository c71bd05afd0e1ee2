package org.offlink.mkoffload;

/** Entry point of {@code libexec/offlink/accel/<target>/mkoffload}. */
public final class MkoffloadMain {
  private MkoffloadMain() {}

  /** Runs mkoffload and exits with its status. */
  public static void main(String[] args) {
    System.err.println("mkoffload: fatal error: offlink's mkoffload has not landed yet");
    System.exit(1);
  }
}
