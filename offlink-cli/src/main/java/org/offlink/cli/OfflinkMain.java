package org.offlink.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import org.offlink.bridge.doctor.JvmFacts;
import org.offlink.cli.debug.DebugCommands;
import org.offlink.cli.server.ServerCommand;
import org.offlink.runtime.LinkContext;
import org.offlink.streamer.OfflinkVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code bin/offlink}, the user-facing tool: {@code doctor} (is the toolchain able
 * to link for every configured offload target?) and {@code inspect} (what offload content does a
 * file hold?), {@code gcc-support} (which GCC versions and targets does offlink implement?), plus
 * the link-debugging commands of {@link DebugCommands} and {@code server} (the user's link
 * servers). Errors are one line, {@code offlink: error: <message>}, exit status 1; stack traces
 * only with {@code OFFLINK_DEBUG=1}.
 */
@Command(
    name = "offlink",
    mixinStandardHelpOptions = true,
    versionProvider = OfflinkMain.Version.class,
    description = "GCC offload toolchain doctor, offload binary inspector and link debugger.")
public final class OfflinkMain extends CommandGroup {
  static final String PROGRAM = "offlink";

  /** Runs the CLI and exits with its status. */
  public static void main(String[] args) {
    CliExecution.main(
        PROGRAM,
        context ->
            run(
                args,
                context,
                JvmFacts.ofRunningJvm(),
                System.getProperty("offlink.launcher", "")));
  }

  /**
   * Runs the CLI in {@code context}; {@code launcher} is the {@code bin/offlink} launcher's real
   * path ("" without one). Returns the exit status.
   */
  static int run(String[] args, LinkContext context, JvmFacts jvm, String launcher) {
    PrintWriter out = new PrintWriter(context.out(), true);
    PrintWriter err = new PrintWriter(context.err(), true);
    CommandLine cli = new CommandLine(new OfflinkMain());
    Optional<Path> installation = installation(launcher);
    cli.addSubcommand(new DoctorCommand(context, jvm, installation));
    cli.addSubcommand(new InspectCommand());
    cli.addSubcommand(new GccSupportCommand());
    for (Object more : DebugCommands.commands(context, launcher)) {
      cli.addSubcommand(more);
    }
    cli.addSubcommand(new ServerCommand(context, installation));
    return CliExecution.execute(cli, PROGRAM, out, err, CliExecution.debug(context), args);
  }

  /** The tree's root, two folders above the {@code bin/offlink} launcher; empty without one. */
  static Optional<Path> installation(String launcher) {
    Path bin = launcher.isEmpty() ? null : Path.of(launcher).getParent();
    return Optional.ofNullable(bin == null ? null : bin.getParent());
  }

  /** {@code --version}: the version from the build's one source. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"offlink " + OfflinkVersion.number()};
    }
  }
}
