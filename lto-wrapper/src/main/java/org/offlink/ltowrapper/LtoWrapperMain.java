package org.offlink.ltowrapper;

/** Entry point of {@code libexec/offlink/lto-wrapper}. */
public final class LtoWrapperMain {
  private LtoWrapperMain() {}

  /** Runs lto-wrapper and exits with its status. */
  public static void main(String[] args) {
    System.err.println("lto-wrapper: fatal error: offlink's lto-wrapper has not landed yet");
    System.exit(1);
  }
}
