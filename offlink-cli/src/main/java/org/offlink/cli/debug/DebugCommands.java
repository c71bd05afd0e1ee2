package org.offlink.cli.debug;

import java.nio.file.Path;
import java.util.List;
import org.offlink.runtime.LinkContext;

/**
 * The link-debugging commands of {@code offlink}: {@code replay}, {@code explain}, the standalone
 * {@code lto-wrapper} and {@code mkoffload}, and {@code cache} (the device-image cache).
 */
public final class DebugCommands {
  private DebugCommands() {}

  /**
   * The picocli command objects for a run in {@code context}; {@code launcher} is the real path of
   * the {@code bin/offlink} launcher that started the JVM ("" without one).
   */
  public static List<Object> commands(LinkContext context, String launcher) {
    Path libexec = libexec(context, launcher);
    return List.of(
        new ReplayCommand(context, libexec),
        new CacheCommand(context),
        new ExplainCommand(context),
        new LtoWrapperCommand(context, libexec),
        new MkoffloadStandaloneCommand(context, libexec));
  }

  /**
   * This tree's {@code libexec/offlink} from the path of the {@code bin/offlink} launcher (both
   * layouts put it at {@code ROOT/libexec/offlink}); empty without one.
   */
  static Path libexec(LinkContext context, String launcher) {
    if (launcher.isEmpty()) {
      return Path.of("");
    }
    Path bin = context.workingDirectory().resolve(launcher).getParent();
    Path root = bin == null ? null : bin.getParent();
    return root == null ? Path.of("") : root.resolve("libexec").resolve("offlink");
  }
}
