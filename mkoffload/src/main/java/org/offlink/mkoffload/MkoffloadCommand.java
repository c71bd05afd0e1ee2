package org.offlink.mkoffload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.offlink.bridge.ToolContext;
import org.offlink.bridge.mkoffload.Mkoffload;
import org.offlink.bridge.mkoffload.MkoffloadRequest;
import org.offlink.bridge.mkoffload.WrapperMode;
import org.offlink.bridge.process.ResponseFiles;
import org.offlink.bridge.tool.OffloadTarget;

/**
 * The mkoffload command line: offlink's own options ({@code --target=}, {@code --wrapper=}, {@code
 * --help}, {@code --version}; also read from the {@code OFFLINK_FLAGS} environment variable so they
 * reach us through GCC) are taken out, everything else is GCC's and goes to {@link Mkoffload}. The
 * target comes from {@code --target=} or from the install path {@code
 * .../accel/<target>/mkoffload}.
 */
public final class MkoffloadCommand {
  static final String VERSION = "offlink mkoffload 0.1.0 (GCC 12 compatible)";

  private final ToolContext context;
  private final String launcherPath;

  /** A command in {@code context}; {@code launcherPath} is the launcher script's real path. */
  public MkoffloadCommand(ToolContext context, String launcherPath) {
    this.context = Objects.requireNonNull(context, "context");
    this.launcherPath = Objects.requireNonNull(launcherPath, "launcherPath");
  }

  /** Parses and runs; returns the exit status. */
  public int run(List<String> args) {
    List<String> gcc = new ArrayList<>();
    Optional<String> target = Optional.empty();
    WrapperMode mode = WrapperMode.ELF;
    List<String> ours = new ArrayList<>();
    context.env("OFFLINK_FLAGS").ifPresent(f -> ours.addAll(ResponseFiles.split(f)));
    try {
      for (String a : args) {
        if (a.equals("--help")) {
          context.err().print(usage());
          return 0;
        } else if (a.equals("--version")) {
          context.err().println(VERSION);
          return 0;
        } else if (a.startsWith("--target=") || a.startsWith("--wrapper=")) {
          ours.add(a);
        } else {
          gcc.add(a);
        }
      }
      for (String a : ours) {
        if (a.startsWith("--target=")) {
          target = Optional.of(a.substring("--target=".length()));
        } else if (a.startsWith("--wrapper=")) {
          mode = WrapperMode.parse(a.substring("--wrapper=".length()));
        }
      }
    } catch (IllegalArgumentException e) {
      return usageError(e.getMessage());
    }
    Optional<OffloadTarget> resolved =
        target.isPresent() ? OffloadTarget.byTriplet(target.get()) : targetFromPath(launcherPath);
    if (resolved.isEmpty()) {
      return usageError(
          target
              .map(t -> "unknown offload target '" + t + "' (expected nvptx-none or amdgcn-amdhsa)")
              .orElse(
                  "cannot tell the offload target from '"
                      + launcherPath
                      + "': install as .../accel/<target>/mkoffload or pass --target="));
    }
    return new Mkoffload(context).run(new MkoffloadRequest(resolved.get(), gcc, mode));
  }

  /** The target named by {@code .../accel/<target>/mkoffload}, if the path has that shape. */
  static Optional<OffloadTarget> targetFromPath(String path) {
    if (path.isEmpty()) {
      return Optional.empty();
    }
    Path p = Path.of(path);
    Path dir = p.getParent();
    if (dir == null || dir.getParent() == null || dir.getParent().getFileName() == null) {
      return Optional.empty();
    }
    if (!dir.getParent().getFileName().toString().equals("accel")) {
      return Optional.empty();
    }
    return OffloadTarget.byTriplet(dir.getFileName().toString());
  }

  private int usageError(String message) {
    context.err().println("mkoffload: error: " + message);
    return 1;
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
