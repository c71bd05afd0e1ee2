package org.offlink.ltowrapper;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.offlink.bridge.process.ResponseFileExpander;
import org.offlink.streamer.io.ExitCleanup;
import org.offlink.streamer.io.WorkingDirectory;

/**
 * The linker plugin's {@code -foffload-objects=} list is lto-wrapper's to remove from the start
 * (GCC's {@code tool_cleanup} unlinks {@code offload_objects_file_name}), also when a signal comes
 * before the link has parsed its options: {@code main} hands it to {@link ExitCleanup} before
 * anything else (unless {@code -save-temps}, which keeps it). The launcher covers the JVM's own
 * start-up, before {@code main}.
 */
final class OffloadListCleanup {
  private static final String OPTION = "-foffload-objects=";

  private OffloadListCleanup() {}

  /** Tracks the list named by {@code args} (response files expanded) for removal at a signal. */
  static void trackEarly(List<String> args, Map<String, String> env, Path cwd) {
    if (env.getOrDefault("COLLECT_GCC_OPTIONS", "").contains("'-save-temps")) {
      return;
    }
    List<String> argv = new ArrayList<>();
    argv.add("lto-wrapper");
    argv.addAll(args);
    try {
      for (String a : new ResponseFileExpander(cwd).expand(argv)) {
        if (a.startsWith(OPTION) && a.length() > OPTION.length()) {
          ExitCleanup.track(WorkingDirectory.resolve(cwd, a.substring(OPTION.length())));
        }
      }
    } catch (java.io.IOException | RuntimeException e) {
      // a bad @file or name: the link itself reports it in a moment
    }
  }
}
