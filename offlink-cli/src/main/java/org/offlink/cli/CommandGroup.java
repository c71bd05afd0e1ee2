package org.offlink.cli;

import picocli.CommandLine;

/**
 * A command line whose work is done by its commands ({@code offlink}, {@code section-streamer}):
 * run without one, it is a usage error, {@code <program>: error: missing command (see --help)}.
 */
public abstract class CommandGroup implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing command");
  }
}
