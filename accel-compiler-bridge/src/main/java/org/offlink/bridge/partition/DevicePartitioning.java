package org.offlink.bridge.partition;

import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.offlink.bridge.gcc.AccelTools;
import org.offlink.bridge.gcc.MkoffloadDumpNames;
import org.offlink.bridge.temp.TempFiles;
import org.offlink.bridge.tool.OffloadTarget;

/**
 * An image builder's first try with {@code OFFLINK_FLAGS=--device-jobs=N}: the target's build in
 * partitions, when the builder was given {@link PartitionServices}. Where partitions cannot stand
 * for the whole program it says why under {@code -v} and leaves the build to GCC's steps.
 */
public final class DevicePartitioning {
  /**
   * A target's build in partitions on the {@link PartitionWork} it is given.
   *
   * @param <T> what the build gives the image builder (its tables, its requires mask)
   */
  @FunctionalInterface
  public interface Build<T> {
    /**
     * Builds in partitions; empty when the program has fewer than two inputs.
     *
     * @throws WholeProgramNeeded when the partitions cannot stand for the whole program
     */
    Optional<T> build(PartitionWork work) throws IOException, WholeProgramNeeded;
  }

  private final AccelTools tools;
  private final Optional<PartitionServices> services;

  /** Partitioning with {@code tools}; none when {@code services} is empty. */
  public DevicePartitioning(AccelTools tools, Optional<PartitionServices> services) {
    this.tools = Objects.requireNonNull(tools, "tools");
    this.services = Objects.requireNonNull(services, "services");
  }

  /**
   * Runs {@code build} for {@code target}'s mkoffload; empty when the caller is to run GCC's steps
   * (no partitioning asked for, fewer than two inputs, or partitions that cannot stand for the
   * whole program, which {@code verbose} says).
   */
  public <T> Optional<T> attempt(
      OffloadTarget target,
      TempFiles temps,
      MkoffloadDumpNames names,
      boolean verbose,
      Build<T> build)
      throws IOException {
    if (services.isEmpty()) {
      return Optional.empty();
    }
    String program = tools.gcc().release().mkoffloadName(target);
    Consumer<String> say =
        line -> {
          if (verbose) {
            tools.context().err().println(program + ": " + line);
          }
        };
    try {
      return build.build(
          new PartitionWork(tools.runner(), tools.context(), services.get(), say, temps, names));
    } catch (WholeProgramNeeded e) {
      say.accept("device partitions: " + e.getMessage() + "; compiling the whole program");
      return Optional.empty();
    }
  }
}
