package org.offlink.ltowrapper;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.offlink.runtime.CommandStartup;
import org.offlink.runtime.LastResort;
import org.offlink.runtime.LinkContext;

/**
 * Entry point of {@code libexec/offlink/lto-wrapper}: the process edge around {@link
 * LtoWrapper#run}. The launcher passes the name it was invoked as in the system property {@code
 * offlink.argv0} (echoed with {@code -v}), its own real path in {@code offlink.launcher} (where
 * this installation's mkoffloads are found) and the link client's reason for running the link in
 * this JVM in {@code offlink.mode}.
 */
public final class LtoWrapperMain {
  private LtoWrapperMain() {}

  /** Runs lto-wrapper and exits with its status. */
  public static void main(String[] args) {
    // The plugin's list is tracked before the launcher is told the JVM can clean up.
    LinkContext context =
        CommandStartup.start(c -> OffloadListCleanup.trackEarly(Arrays.asList(args), c));
    List<String> argv = new ArrayList<>();
    argv.add(System.getProperty("offlink.argv0", LtoWrapper.PROGRAM));
    argv.addAll(Arrays.asList(args));
    String launcher = System.getProperty("offlink.launcher", "");
    Optional<Path> installed =
        launcher.isEmpty() ? Optional.empty() : Optional.of(Path.of(launcher));
    // The link client says why this link runs in a JVM of its own (offlink.mode); a launcher run
    // by hand says nothing.
    String mode = System.getProperty("offlink.mode", LtoWrapper.IN_PROCESS);
    int status =
        LastResort.run(
            LtoWrapper.PROGRAM + ": fatal error: ",
            context.err(),
            context.env("OFFLINK_DEBUG").isPresent(),
            () -> LtoWrapperWiring.forInstallation(installed, mode).run(context, argv));
    CommandStartup.exit(context, status);
  }
}
