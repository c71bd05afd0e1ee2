package org.offlink.ltowrapper;

import java.util.Arrays;
import org.offlink.bridge.ToolContext;
import org.offlink.ltowrapper.run.LtoWrapperServices;
import org.offlink.streamer.io.CommandStartup;
import org.offlink.streamer.io.LastResort;

/**
 * Entry point of {@code libexec/offlink/lto-wrapper}. The launcher passes the name it was invoked
 * as in the system property {@code offlink.argv0} (echoed with {@code -v}).
 */
public final class LtoWrapperMain {
  private LtoWrapperMain() {}

  /** Runs lto-wrapper and exits with its status. */
  public static void main(String[] args) {
    ToolContext context = ToolContext.ofSystem();
    OffloadListCleanup.trackEarly(
        Arrays.asList(args), context.environment(), context.workingDirectory());
    CommandStartup.prepare(context.environment(), context.workingDirectory());
    String argv0 = System.getProperty("offlink.argv0", LtoWrapper.PROGRAM);
    int status =
        LastResort.run(
            LtoWrapper.PROGRAM + ": fatal error: ",
            context.err(),
            context.env("OFFLINK_DEBUG").isPresent(),
            () -> {
              LtoWrapperServices services = LtoWrapperWiring.services(context);
              return new LtoWrapper(context, services, LtoWrapperWiring.imageBuilders(context))
                  .execute(argv0, Arrays.asList(args));
            });
    CommandStartup.exit(status);
  }
}
