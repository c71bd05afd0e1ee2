package org.offlink.bridge.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.offlink.bridge.ToolContext;
import org.offlink.bridge.doctor.Doctor;
import org.offlink.bridge.doctor.DoctorCheck;
import org.offlink.bridge.doctor.DoctorReport;
import org.offlink.bridge.doctor.DoctorSettings;
import org.offlink.bridge.doctor.JvmFacts;
import org.offlink.bridge.process.RunnerOptions;
import org.offlink.bridge.process.SystemProcessRunner;
import org.offlink.server.ServerDoctor;
import org.offlink.server.cli.ServerCommands;
import org.offlink.streamer.cli.Json;
import org.offlink.streamer.io.TempDirectory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code offlink doctor}: prints what the offload toolchain has and lacks; exit status 0 only when
 * every configured offload target can link.
 */
@Command(
    name = "doctor",
    mixinStandardHelpOptions = true,
    description = {
      "Check the host GCC, each configured offload target's accel compiler and tools, the ptxas",
      "trap, the libgomp plugins, the JVM and the link server; name the Debian package for",
      "anything missing.",
      "Exit status 0 when every configured offload target can link."
    })
final class DoctorCommand implements Callable<Integer> {
  private final ToolContext context;
  private final JvmFacts jvm;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--json", description = "Write JSON instead of text.")
  boolean json;

  @Option(names = "--root", hidden = true, description = "File-system root (tests).")
  Path root = Path.of("/");

  DoctorCommand(ToolContext context, JvmFacts jvm) {
    this.context = context;
    this.jvm = jvm;
  }

  @Override
  public Integer call() throws Exception {
    SystemProcessRunner runner =
        new SystemProcessRunner(
            RunnerOptions.quiet(
                context.err(),
                TempDirectory.choose(context.environment(), context.workingDirectory())));
    DoctorReport examined =
        new Doctor(
                new DoctorSettings(
                    root, context.environment(), context.workingDirectory(), runner, jvm))
            .examine();
    List<DoctorCheck> checks = new ArrayList<>(examined.checks());
    checks.add(ServerDoctor.check(context.environment(), ServerCommands.installation()));
    DoctorReport report = new DoctorReport(examined.targets(), examined.linkable(), checks);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.print(Json.write(report.toJson()));
    } else {
      DoctorText.print(report, out);
    }
    return report.healthy() ? 0 : 1;
  }
}
