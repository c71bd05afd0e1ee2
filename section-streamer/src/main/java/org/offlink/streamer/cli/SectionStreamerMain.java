package org.offlink.streamer.cli;

/** Entry point of {@code bin/section-streamer}. */
public final class SectionStreamerMain {
  private SectionStreamerMain() {}

  /** Runs the CLI and exits with its status. */
  public static void main(String[] args) {
    System.err.println("section-streamer: error: no commands yet");
    System.exit(1);
  }
}
