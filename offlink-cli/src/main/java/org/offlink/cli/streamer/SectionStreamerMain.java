package org.offlink.cli.streamer;

import java.io.PrintWriter;
import org.offlink.cli.CliExecution;
import org.offlink.cli.CommandGroup;
import org.offlink.runtime.LinkScope;
import org.offlink.streamer.OfflinkVersion;
import org.offlink.streamer.lto.ZstdDecoding;
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
public final class SectionStreamerMain extends CommandGroup {
  static final String PROGRAM = "section-streamer";

  private final LinkScope scope;

  private SectionStreamerMain(LinkScope scope) {
    this.scope = scope;
  }

  /** The scope of this run: the outputs being written are its files until renamed. */
  LinkScope scope() {
    return scope;
  }

  /** Runs the CLI and exits with its status. */
  public static void main(String[] args) {
    // SIGINT/SIGTERM/SIGHUP: remove the .<out>.XXXXXX.tmp being written (exit status 128+sig).
    CliExecution.main(
        PROGRAM,
        context -> {
          // Only `dump` decodes zstd: zstd-jni unpacks its library into libiberty's temp folder.
          ZstdDecoding.unpackInto(context.tempDirectory());
          return run(
              args,
              context.scope(),
              new PrintWriter(context.out(), true),
              new PrintWriter(context.err(), true),
              CliExecution.debug(context));
        });
  }

  /** Runs the CLI with {@code scope} and these streams; returns the exit status. */
  static int run(String[] args, LinkScope scope, PrintWriter out, PrintWriter err, boolean debug) {
    return CliExecution.execute(
        new CommandLine(new SectionStreamerMain(scope)), PROGRAM, out, err, debug, args);
  }

  /** {@code --version}: the version from the build's one source. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"section-streamer (offlink) " + OfflinkVersion.number()};
    }
  }
}
