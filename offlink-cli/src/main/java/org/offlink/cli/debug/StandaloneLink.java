package org.offlink.cli.debug;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.cli.replay.ReportFiles;
import org.offlink.ltowrapper.report.proto.LinkReport;
import org.offlink.ltowrapper.report.proto.Subcommand;

/**
 * lto-wrapper run by hand as a driver would run it: the variables come from {@link
 * DriverEnvironment}, the inputs are passed as collect2 passes them (GCC's non-plugin link, whose
 * lto-wrapper finds the offload objects itself), and this tree's {@code lto-wrapper} runs as a
 * process with {@code OFFLINK_REPORT} set, so that the sub-commands it ran can be listed.
 */
final class StandaloneLink {
  private final ProcessRunner runner;
  private final Path libexec;
  private final Map<String, String> environment;
  private final Path cwd;

  StandaloneLink(ProcessRunner runner, Path libexec, Map<String, String> environment, Path cwd) {
    this.runner = runner;
    this.libexec = libexec;
    this.environment = Map.copyOf(environment);
    this.cwd = cwd;
  }

  /** The run: lto-wrapper's result and its link report. */
  record Result(CommandResult run, LinkReport report) {}

  /**
   * Runs lto-wrapper over {@code inputs} with the driver's variables for {@code gccArgs} (which
   * include the inputs, as on a gcc link line); its report goes to {@code reportFile}, its
   * temporary files to {@code tmp} when not null. {@code err} gets what was derived.
   */
  Result run(
      String gcc,
      List<String> gccArgs,
      List<String> inputs,
      Path reportFile,
      Path tmp,
      PrintWriter err)
      throws IOException {
    DriverEnvironment driver =
        DriverEnvironment.ask(runner, gcc, libexec, gccArgs, environment, cwd);
    Map<String, String> env = new HashMap<>(environment);
    env.putAll(driver.variables());
    driver.variables().forEach((k, v) -> err.println("offlink: " + k + "=" + v));
    env.put("OFFLINK_REPORT", reportFile.toString());
    if (tmp != null) {
      env.put("TMPDIR", tmp.toString());
    }
    List<String> argv = new ArrayList<>();
    argv.add(libexec.resolve("lto-wrapper").toString());
    argv.add("-flinker-output=" + driver.linkerOutput());
    argv.addAll(inputs);
    err.println("offlink: ran: " + String.join(" ", argv));
    CommandResult result = runner.run(Command.of(argv, env, cwd));
    LinkReport report =
        Files.isRegularFile(reportFile)
            ? ReportFiles.read(reportFile)
            : LinkReport.newBuilder().setExitStatus(result.exitStatus()).build();
    return new Result(result, report);
  }

  /** Prints lto-wrapper's stderr and, from its report, every sub-command it ran. */
  static void describe(Result r, PrintWriter err) {
    if (!r.run().stderr().isEmpty()) {
      err.print(r.run().stderr());
    }
    for (Subcommand s : r.report().getSubcommandsList()) {
      String where = s.getInProcess() ? " (in lto-wrapper's JVM)" : "";
      err.println(
          "offlink:   "
              + (s.getTarget().isEmpty() ? "" : s.getTarget() + ": ")
              + String.join(" ", s.getArgvList())
              + where
              + " -> exit status "
              + s.getExitStatus());
    }
  }

  /** The inputs among gcc arguments: the words that are not options or option values. */
  static List<String> inputs(List<String> gccArgs) {
    List<String> inputs = new ArrayList<>();
    for (int i = 0; i < gccArgs.size(); i++) {
      String a = gccArgs.get(i);
      if (SEPARATE_VALUE.contains(a)) {
        i++; // its value
      } else if (!a.startsWith("-")) {
        inputs.add(a);
      }
    }
    return inputs;
  }

  /** GCC link options whose value is the next word. */
  private static final List<String> SEPARATE_VALUE =
      List.of("-o", "-L", "-B", "-l", "-x", "-T", "-u", "-Xlinker", "-include", "-dumpdir");
}
