package org.offlink.streamer.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import org.offlink.cli.CliExecution;
import org.offlink.streamer.OfflinkVersion;
import org.offlink.streamer.io.CommandStartup;
import org.offlink.streamer.io.LastResort;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code bin/section-streamer}: inspect and edit the offload IR sections of objects
 * and archives. Every error is one line, {@code section-streamer: error: <message>}, exit status 1;
 * stack traces only with {@code OFFLINK_DEBUG=1}.
 */
@Command(
    name = "section-streamer",
    mixinStandardHelpOptions = true,
    versionProvider = SectionStreamerMain.Version.class,
    description = "Inspect and edit GCC offload IR sections (.gnu.offload_lto_*) of objects.",
    subcommands = {
      ListCommand.class,
      DumpCommand.class,
      OptsCommand.class,
      AddCommand.class,
      StripCommand.class,
      ExtractCommand.class,
      RenameCommand.class
    })
public final class SectionStreamerMain implements Runnable {
  static final String PROGRAM = "section-streamer";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing command");
  }

  /** Runs the CLI and exits with its status. */
  public static void main(String[] args) {
    // SIGINT/SIGTERM/SIGHUP: remove the .<out>.XXXXXX.tmp being written (exit status 128+sig).
    CommandStartup.prepare(System.getenv(), Path.of("").toAbsolutePath());
    CommandStartup.exit(
        LastResort.run(
            PROGRAM + ": error: ",
            System.err,
            System.getenv("OFFLINK_DEBUG") != null,
            () -> run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true))));
  }

  /** Runs the CLI with the given streams; returns the exit status. */
  static int run(String[] args, PrintWriter out, PrintWriter err) {
    return CliExecution.execute(
        new CommandLine(new SectionStreamerMain()),
        PROGRAM,
        out,
        err,
        System.getenv("OFFLINK_DEBUG") != null,
        args);
  }

  /** {@code --version}: the version from the build's one source. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"section-streamer (offlink) " + OfflinkVersion.number()};
    }
  }
}
