package org.offlink.ltowrapper;

import java.util.ArrayList;
import java.util.List;
import org.offlink.bridge.process.ResponseFileExpander;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.WorkingDirectory;

/**
 * The linker plugin's {@code -foffload-objects=} list is lto-wrapper's to remove from the start
 * (GCC's {@code tool_cleanup} unlinks {@code offload_objects_file_name}), also when a signal comes
 * before the link has parsed its options: it is handed to the link's scope (unless {@code
 * -save-temps}, which keeps it), which removes it at the link's end or cancellation. In a JVM of
 * its own, {@link LtoWrapperMain} does it before the launcher is told the JVM is ready (until then
 * the launcher removes the list itself); {@link LtoWrapper#run} does it first thing for the link
 * server's links.
 */
final class OffloadListCleanup {
  private static final String OPTION = "-foffload-objects=";

  private OffloadListCleanup() {}

  /** Tracks the list named by {@code args} (response files expanded) for removal at a signal. */
  static void trackEarly(List<String> args, LinkContext context) {
    if (context.env("COLLECT_GCC_OPTIONS").orElse("").contains("'-save-temps")) {
      return;
    }
    List<String> argv = new ArrayList<>();
    argv.add("lto-wrapper");
    argv.addAll(args);
    try {
      for (String a : new ResponseFileExpander(context.workingDirectory()).expand(argv)) {
        if (a.startsWith(OPTION) && a.length() > OPTION.length()) {
          context
              .scope()
              .track(
                  WorkingDirectory.resolve(
                      context.workingDirectory(), a.substring(OPTION.length())));
        }
      }
    } catch (java.io.IOException | RuntimeException e) {
      // a bad @file or name: the link itself reports it in a moment
    }
  }
}
