package org.offlink.mkoffload;

import java.util.List;
import java.util.Optional;
import org.offlink.bridge.gcc.OffloadOptionException;
import org.offlink.bridge.gcc.OffloadOptions;
import org.offlink.bridge.mkoffload.Mkoffload;
import org.offlink.bridge.mkoffload.MkoffloadInvocation;
import org.offlink.bridge.mkoffload.MkoffloadRequest;
import org.offlink.bridge.nvptx.PtxLinking;
import org.offlink.bridge.process.ResponseFileExpander.ResponseFileException;
import org.offlink.runtime.ErrorText;
import org.offlink.runtime.LinkContext;

/**
 * The mkoffload command line, the library entry point of a standalone mkoffload: {@code --help} and
 * {@code --version} here, offlink's other options and the target by {@link MkoffloadInvocation},
 * GCC's by {@link OffloadOptions#parse}, and the work by {@link Mkoffload}. Everything a run uses
 * comes from its {@link LinkContext}, so runs in one JVM do not meet.
 */
public final class MkoffloadTool {
  static final String VERSION = Mkoffload.VERSION;

  private MkoffloadTool() {}

  /**
   * Runs one mkoffload command line in {@code context}; returns the exit status, never throws for
   * bad input. {@code argv[0]} is the path mkoffload was run as ({@code
   * .../accel/<target>/mkoffload} names the target unless {@code --target=} does).
   */
  public static int run(LinkContext context, List<String> argv) {
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("empty argv");
    }
    String launcherPath = argv.get(0);
    List<String> args = argv.subList(1, argv.size());
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
    MkoffloadInvocation.CommandLine line;
    try {
      line =
          MkoffloadInvocation.parseCommandLine(
              args, launcherPath, context.environment(), context.workingDirectory());
    } catch (ResponseFileException e) {
      return Mkoffload.fatal(context, ErrorText.of(e));
    } catch (IllegalArgumentException e) {
      context.err().println("mkoffload: error: " + e.getMessage());
      return 1;
    }
    if (context.env("COLLECT_GCC").isEmpty()) {
      return Mkoffload.fatal(context, "COLLECT_GCC must be set.");
    }
    OffloadOptions options;
    try {
      options = OffloadOptions.parse(line.gccArguments());
    } catch (OffloadOptionException e) {
      return Mkoffload.fatal(context, e.getMessage());
    }
    return new Mkoffload(context)
        .run(
            new MkoffloadRequest(
                line.target(), options, line.mode(), false, Optional.empty(), PtxLinking.NONE))
        .status();
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
