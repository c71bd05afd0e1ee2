package org.offlink.bridge.mkoffload;

import org.offlink.bridge.image.ImageCounts;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.tool.OffloadTarget;

/**
 * Observes the programs one in-process {@link Mkoffload} run starts, for lto-wrapper's link report
 * (what mkoffload built comes back in its {@link MkoffloadResult}), and is offered the wrapper
 * object the moment it exists in memory. Called on the thread that runs mkoffload; must not throw.
 */
public interface MkoffloadListener {
  /**
   * The listener that ignores everything. A class, not a lambda: JDK 25's start-up cache stopped
   * keeping this lambda once the interface had default methods, and every link spun it anew.
   */
  MkoffloadListener NONE =
      new MkoffloadListener() {
        @Override
        public void commandFinished(OffloadTarget target, Command command, CommandResult result) {}
      };

  /**
   * mkoffload is about to start a program for {@code target} (the first is the accel compiler,
   * which keeps one core busy for most of the build while this JVM waits).
   */
  default void commandStarting(OffloadTarget target, Command command) {}

  /** A program run by mkoffload for {@code target} has finished (whatever its exit status). */
  void commandFinished(OffloadTarget target, Command command, CommandResult result);

  /**
   * The wrapper object for {@code target}'s image is built, in memory, and about to be written to
   * mkoffload's output (so that a caller can use the bytes meanwhile, without reading the file
   * back). Only for an object offlink writes itself (not one compiled from the C form); the array
   * must not be changed.
   */
  default void wrapperReady(OffloadTarget target, byte[] object, ImageCounts counts) {}
}
