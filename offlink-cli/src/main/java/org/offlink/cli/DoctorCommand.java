package org.offlink.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.offlink.bridge.doctor.Doctor;
import org.offlink.bridge.doctor.DoctorCheck;
import org.offlink.bridge.doctor.DoctorReport;
import org.offlink.bridge.doctor.DoctorSettings;
import org.offlink.bridge.doctor.JvmFacts;
import org.offlink.bridge.process.RunnerOptions;
import org.offlink.bridge.process.SystemProcessRunner;
import org.offlink.runtime.LinkContext;
import org.offlink.server.ServerDoctor;
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
  private final LinkContext context;
  private final JvmFacts jvm;
  private final Optional<Path> installation;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--json", description = "Write JSON instead of text.")
  boolean json;

  @Option(names = "--root", hidden = true, description = "File-system root (tests).")
  Path root = Path.of("/");

  /** {@code installation}: this tree's root (for the link server's line), when known. */
  DoctorCommand(LinkContext context, JvmFacts jvm, Optional<Path> installation) {
    this.context = context;
    this.jvm = jvm;
    this.installation = installation;
  }

  @Override
  public Integer call() throws Exception {
    SystemProcessRunner runner = new SystemProcessRunner(RunnerOptions.quiet(context));
    DoctorReport examined = new Doctor(new DoctorSettings(root, context, runner, jvm)).examine();
    List<DoctorCheck> checks = new ArrayList<>(examined.checks());
    checks.add(ServerDoctor.check(context.environment(), installation));
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
