package org.offlink.mkoffload;

import java.util.List;
import java.util.Objects;
import org.offlink.bridge.ToolContext;
import org.offlink.bridge.mkoffload.Mkoffload;
import org.offlink.bridge.mkoffload.MkoffloadInvocation;
import org.offlink.bridge.mkoffload.MkoffloadRequest;
import org.offlink.bridge.process.ResponseFileExpander.ResponseFileException;
import org.offlink.streamer.io.ErrorText;

/**
 * The mkoffload command line: {@code --help} and {@code --version} here, offlink's other options
 * and the target by {@link MkoffloadInvocation}, and the work by {@link Mkoffload}.
 */
public final class MkoffloadTool {
  static final String VERSION = Mkoffload.VERSION;

  private final ToolContext context;
  private final String launcherPath;

  /** A command in {@code context}; {@code launcherPath} is the launcher script's real path. */
  public MkoffloadTool(ToolContext context, String launcherPath) {
    this.context = Objects.requireNonNull(context, "context");
    this.launcherPath = Objects.requireNonNull(launcherPath, "launcherPath");
  }

  /** Parses and runs; returns the exit status. */
  public int run(List<String> args) {
    if (args.contains("--help")) {
      context.err().print(usage());
      return 0;
    }
    if (args.contains("--version")) {
      // Installed as accel/<target>/mkoffload it names the GCC versions of its own target.
      context
          .err()
          .println(
              MkoffloadInvocation.targetFromPath(launcherPath)
                  .map(Mkoffload::version)
                  .orElse(VERSION));
      return 0;
    }
    MkoffloadRequest request;
    try {
      request =
          MkoffloadInvocation.parseCommandLine(
              args, launcherPath, context.environment(), context.workingDirectory());
    } catch (ResponseFileException e) {
      return Mkoffload.fatal(context, ErrorText.of(e));
    } catch (IllegalArgumentException e) {
      context.err().println("mkoffload: error: " + e.getMessage());
      return 1;
    }
    return new Mkoffload(context).run(request).status();
  }

  static String usage() {
    return String.join(
        "\n",
        "Usage: mkoffload [GCC mkoffload options] -o OUT.o INPUT...",
        "",
        "offlink's drop-in for GCC 12's accel/<target>/mkoffload; lto-wrapper runs it with",
        "-foffload-abi=lp64|ilp32, -fopenmp|-fopenacc, -dumpbase, -save-temps, -v and target",
        "options, and it writes a host object that registers the device image with libgomp.",
        "",
        "offlink options (also accepted in the OFFLINK_FLAGS environment variable):",
        "  --target=nvptx-none|amdgcn-amdhsa  target, if not given by the install path",
        "  --wrapper=elf   write the wrapper object directly (default, x86-64 hosts)",
        "  --wrapper=c     write GCC's C form and compile it with the host compiler",
        "  --help, --version",
        "",
        "Environment: COLLECT_GCC (required, the host driver), COMPILER_PATH, PATH,",
        "OFFLINK_PTXAS=keep (keep ptxas verification even when the ptxas found is too new).",
        "");
  }
}
