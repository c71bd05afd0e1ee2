package org.offlink.bridge.cli;

import java.io.PrintWriter;
import java.util.ServiceLoader;
import org.offlink.bridge.ToolContext;
import org.offlink.bridge.doctor.JvmFacts;
import org.offlink.cli.CliExecution;
import org.offlink.streamer.OfflinkVersion;
import org.offlink.streamer.io.CommandStartup;
import org.offlink.streamer.io.LastResort;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code bin/offlink}, the user-facing tool: {@code doctor} (is the toolchain able
 * to link for every configured offload target?) and {@code inspect} (what offload content does a
 * file hold?), {@code gcc-support} (which GCC versions and targets does offlink implement?), plus
 * the commands of {@link OfflinkSubcommands} found on the class path. Errors are one line, {@code
 * offlink: error: <message>}, exit status 1; stack traces only with {@code OFFLINK_DEBUG=1}.
 */
@Command(
    name = "offlink",
    mixinStandardHelpOptions = true,
    versionProvider = OfflinkMain.Version.class,
    description = "GCC offload toolchain doctor, offload binary inspector and link debugger.")
public final class OfflinkMain implements Runnable {
  static final String PROGRAM = "offlink";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing command");
  }

  /** Runs the CLI and exits with its status. */
  public static void main(String[] args) {
    ToolContext context = ToolContext.ofSystem();
    CommandStartup.prepare(context.environment(), context.workingDirectory());
    CommandStartup.exit(
        LastResort.run(
            PROGRAM + ": error: ",
            context.err(),
            context.env("OFFLINK_DEBUG").isPresent(),
            () -> run(args, context, JvmFacts.ofRunningJvm())));
  }

  /** Runs the CLI in {@code context}; returns the exit status. */
  static int run(String[] args, ToolContext context, JvmFacts jvm) {
    PrintWriter out = new PrintWriter(context.out(), true);
    PrintWriter err = new PrintWriter(context.err(), true);
    CommandLine cli = new CommandLine(new OfflinkMain());
    cli.addSubcommand(new DoctorCommand(context, jvm));
    cli.addSubcommand(new InspectCommand());
    cli.addSubcommand(new GccSupportCommand());
    for (OfflinkSubcommands more : ServiceLoader.load(OfflinkSubcommands.class)) {
      more.commands(context).forEach(cli::addSubcommand);
    }
    return CliExecution.execute(
        cli, PROGRAM, out, err, context.env("OFFLINK_DEBUG").isPresent(), args);
  }

  /** {@code --version}: the version from the build's one source. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"offlink " + OfflinkVersion.number()};
    }
  }
}
