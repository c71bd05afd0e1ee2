package org.offlink.bridge.mkoffload;

import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.tool.OffloadTarget;

/**
 * Observes the programs one in-process {@link Mkoffload} run starts, for lto-wrapper's link report
 * (what mkoffload built comes back in its {@link MkoffloadResult}). Called on the thread that runs
 * mkoffload; must not throw.
 */
public interface MkoffloadListener {
  /** The listener that ignores everything. */
  MkoffloadListener NONE = (target, command, result) -> {};

  /** A program run by mkoffload for {@code target} has finished (whatever its exit status). */
  void commandFinished(OffloadTarget target, Command command, CommandResult result);
}
