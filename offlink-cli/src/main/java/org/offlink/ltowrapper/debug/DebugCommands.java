package org.offlink.ltowrapper.debug;

import java.nio.file.Path;
import java.util.List;
import org.offlink.bridge.ToolContext;
import org.offlink.bridge.cli.OfflinkSubcommands;

/**
 * The commands lto-wrapper adds to {@code offlink}: {@code replay}, {@code explain}, the standalone
 * {@code lto-wrapper} and {@code mkoffload}, and {@code cache} (its device-image cache). Registered
 * in {@code META-INF/services}.
 */
public final class DebugCommands implements OfflinkSubcommands {
  /** For {@link java.util.ServiceLoader}. */
  public DebugCommands() {}

  @Override
  public List<Object> commands(ToolContext context) {
    Path libexec = libexec(System.getProperty("offlink.launcher", ""));
    return List.of(
        new ReplayCommand(context, libexec),
        new CacheCommand(context),
        new ExplainCommand(context),
        new LtoWrapperCommand(context, libexec),
        new MkoffloadStandaloneCommand(context, libexec));
  }

  /**
   * This tree's {@code libexec/offlink} from the path of the {@code bin/offlink} launcher that
   * started the JVM (both layouts put it at {@code ROOT/libexec/offlink}); empty without one.
   */
  static Path libexec(String launcher) {
    if (launcher.isEmpty()) {
      return Path.of("");
    }
    Path bin = Path.of(launcher).toAbsolutePath().getParent();
    Path root = bin == null ? null : bin.getParent();
    return root == null ? Path.of("") : root.resolve("libexec").resolve("offlink");
  }
}
