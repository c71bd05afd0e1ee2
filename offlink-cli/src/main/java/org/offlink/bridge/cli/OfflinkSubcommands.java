package org.offlink.bridge.cli;

import java.util.List;
import org.offlink.bridge.ToolContext;

/**
 * More {@code offlink} commands from modules this one cannot depend on (lto-wrapper's {@code
 * replay}, {@code explain}, ...): found with {@link java.util.ServiceLoader} on the class path and
 * added as picocli subcommands, so the module graph stays acyclic.
 */
public interface OfflinkSubcommands {
  /** The picocli command objects to add, for a run in {@code context}. */
  List<Object> commands(ToolContext context);
}
