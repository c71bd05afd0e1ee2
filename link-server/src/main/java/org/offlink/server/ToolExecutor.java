package org.offlink.server;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.offlink.ltowrapper.LtoWrapper;
import org.offlink.ltowrapper.LtoWrapperWiring;
import org.offlink.mkoffload.MkoffloadTool;
import org.offlink.runtime.LastResort;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.LinkScope;
import org.offlink.runtime.ProcessLinks;
import org.offlink.server.protocol.LinkRequest;

/**
 * Runs a client's link with the server's installation: lto-wrapper (one instance for every link) or
 * the target's mkoffload, in a {@link LinkContext} made from the request (its environment, folder
 * and streams) with a {@link LinkScope} of its own: new files get the client's umask, the link's
 * children start through {@code offlink-exec} with that umask in process groups of their own, and
 * every file and child is told to the client. A cancel cancels the scope (children ended, files
 * removed); so does the server's own SIGTERM ({@link ProcessLinks}).
 */
final class ToolExecutor implements LinkExecutor {
  private final Path libexec;
  private final Path execHelper;
  private final LtoWrapper ltoWrapper;

  /** The executor of the installation at {@code root}, its links running in {@code mode}. */
  ToolExecutor(Path root, String mode) {
    this.libexec = Objects.requireNonNull(root, "root").resolve("libexec/offlink");
    this.execHelper = libexec.resolve("offlink-exec");
    this.ltoWrapper = LtoWrapperWiring.forServer(libexec.resolve("lto-wrapper"), mode);
  }

  @Override
  public int run(LinkRequest request, LinkStreams streams, LinkControl control) {
    LinkScope scope = LinkScope.forClient(request.umask(), execHelper, control.witness());
    LinkContext context =
        LinkContext.of(
            LinkContext.callerEnvironment(request.environment()),
            Path.of(request.workingDirectory()),
            streams.in(),
            streams.out(),
            streams.err(),
            scope);
    ProcessLinks.opened(scope);
    control.onCancel(scope::cancel);
    boolean trace = request.environment().containsKey("OFFLINK_DEBUG");
    try {
      return switch (request.tool()) {
        case LTO_WRAPPER ->
            LastResort.run(
                LtoWrapper.PROGRAM + ": fatal error: ",
                streams.err(),
                trace,
                () -> ltoWrapper.run(context, request.argv()));
        case MKOFFLOAD_NVPTX, MKOFFLOAD_GCN ->
            LastResort.run(
                "mkoffload: fatal error: ",
                streams.err(),
                trace,
                () -> MkoffloadTool.run(context, mkoffloadArgv(request)));
      };
    } finally {
      if (!scope.cancelled()) {
        scope.close();
      }
      ProcessLinks.closed(scope);
      streams.out().flush();
      streams.err().flush();
    }
  }

  /**
   * mkoffload's argv as its launcher gives it: argv[0] is the tool's real path, whose {@code
   * accel/<target>/} names the target (GCC may have run it through a symlink of another name).
   */
  private List<String> mkoffloadArgv(LinkRequest request) {
    List<String> argv = new ArrayList<>(request.argv());
    argv.set(0, libexec.resolve(request.tool().path()).toString());
    return argv;
  }
}
