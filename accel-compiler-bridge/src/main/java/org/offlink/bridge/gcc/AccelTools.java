package org.offlink.bridge.gcc;

import java.io.IOException;
import java.util.Objects;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.bridge.tool.ResolvedTool;
import org.offlink.bridge.tool.ToolLocator;
import org.offlink.runtime.LinkContext;

/**
 * What an image builder works with: the runner for its programs, the link it builds for (its
 * environment, folders and stderr) and the GCC installation, whose accel driver {@link
 * #accelCompiler} looks up.
 *
 * @param runner runs the accel tools
 * @param context the link
 * @param gcc the host GCC installation
 */
public record AccelTools(ProcessRunner runner, LinkContext context, GccInstallation gcc) {
  /** Checks the fields. */
  public AccelTools {
    Objects.requireNonNull(runner, "runner");
    Objects.requireNonNull(context, "context");
    Objects.requireNonNull(gcc, "gcc");
  }

  /**
   * The accel driver mkoffload runs for {@code target} ({@code GCC_INSTALL_NAME}), looked up as
   * GCC's mkoffload does; a miss names the Debian package that provides it.
   */
  public ResolvedTool accelCompiler(OffloadTarget target) throws IOException {
    ToolLocator locator = new ToolLocator(context.environment(), context.workingDirectory());
    return locator.findAccelCompiler(
        gcc.accelDriverName(target), target.debianPackage(gcc.major()));
  }
}
