package org.offlink.mkoffload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.offlink.runtime.CommandStartup;
import org.offlink.runtime.LastResort;
import org.offlink.runtime.LinkContext;

/**
 * Entry point of {@code libexec/offlink/accel/<target>/mkoffload}: the process edge around {@link
 * MkoffloadTool#run}. The launcher passes its own real path in the system property {@code
 * offlink.launcher}; it is argv[0], whose install path names the target.
 */
public final class MkoffloadMain {
  private MkoffloadMain() {}

  /** Runs mkoffload and exits with its status. */
  public static void main(String[] args) {
    LinkContext context = CommandStartup.start();
    List<String> argv = new ArrayList<>();
    argv.add(System.getProperty("offlink.launcher", ""));
    argv.addAll(Arrays.asList(args));
    int status =
        LastResort.run(
            "mkoffload: fatal error: ",
            context.err(),
            context.env("OFFLINK_DEBUG").isPresent(),
            () -> MkoffloadTool.run(context, argv));
    CommandStartup.exit(context, status);
  }
}
