package org.offlink.mkoffload;

import java.util.Arrays;
import org.offlink.bridge.ToolContext;
import org.offlink.streamer.io.CommandStartup;
import org.offlink.streamer.io.LastResort;

/** Entry point of {@code libexec/offlink/accel/<target>/mkoffload}. */
public final class MkoffloadMain {
  private MkoffloadMain() {}

  /** Runs mkoffload and exits with its status. */
  public static void main(String[] args) {
    ToolContext context = ToolContext.ofSystem();
    CommandStartup.prepare(context.environment(), context.workingDirectory());
    String launcher = System.getProperty("offlink.launcher", "");
    int status =
        LastResort.run(
            "mkoffload: fatal error: ",
            context.err(),
            context.env("OFFLINK_DEBUG").isPresent(),
            () -> new MkoffloadTool(context, launcher).run(Arrays.asList(args)));
    context.err().flush();
    CommandStartup.exit(status);
  }
}
