package org.offlink.ltowrapper.reproduce;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.offlink.bridge.doctor.Doctor;
import org.offlink.bridge.doctor.DoctorCheck;
import org.offlink.bridge.doctor.DoctorSettings;
import org.offlink.bridge.doctor.JvmFacts;
import org.offlink.bridge.process.RunnerOptions;
import org.offlink.bridge.process.SystemProcessRunner;
import org.offlink.ltowrapper.report.proto.ToolVersion;
import org.offlink.runtime.ErrorText;
import org.offlink.runtime.LinkContext;

/**
 * The tool versions a bundle records: what {@code offlink doctor} finds in the link's environment
 * (host GCC, each target's accel compiler, nvptx-tools, llvm-mc/lld, ptxas, libgomp plugins, the
 * JDK), one entry per finding.
 */
final class ToolVersions {
  private ToolVersions() {}

  static List<ToolVersion> examine(LinkContext context) {
    List<ToolVersion> tools = new ArrayList<>();
    try {
      SystemProcessRunner runner = new SystemProcessRunner(RunnerOptions.quiet(context));
      DoctorSettings settings =
          new DoctorSettings(Path.of("/"), context, runner, JvmFacts.ofRunningJvm());
      for (DoctorCheck c : new Doctor(settings).examine().checks()) {
        tools.add(
            ToolVersion.newBuilder()
                .setTool(c.area())
                .setStatus(c.status().name().toLowerCase(Locale.ROOT))
                .setDetail(c.detail())
                .build());
      }
    } catch (IOException | RuntimeException e) {
      tools.add(
          ToolVersion.newBuilder()
              .setTool("doctor")
              .setStatus("missing")
              .setDetail("could not examine the tools: " + ErrorText.of(e))
              .build());
    }
    return tools;
  }

  /** The supplier a run passes to {@link Reproducer#forRun}. */
  static java.util.function.Supplier<List<ToolVersion>> of(LinkContext context) {
    return () -> examine(context);
  }
}
