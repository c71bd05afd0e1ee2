package org.offlink.ltowrapper.debug;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.offlink.bridge.ToolContext;
import org.offlink.bridge.process.RunnerOptions;
import org.offlink.bridge.process.SystemProcessRunner;
import org.offlink.ltowrapper.report.proto.Target;
import org.offlink.ltowrapper.report.proto.TargetStatus;
import org.offlink.ltowrapper.reproduce.ScratchFolders;
import org.offlink.streamer.io.AtomicFiles;
import org.offlink.streamer.io.TempDirectory;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code offlink mkoffload --target T [-march=A] [--gcc GCC] [OPTIONS] OBJECTS... -o WRAPPER.o}:
 * one target's wrapper object, built on the code path of a real link: lto-wrapper runs as in {@code
 * offlink lto-wrapper} with {@code -foffload=T} (and {@code -foffload-options=T=-march=A}), so
 * mkoffload gets the argv and the merged options of the objects a link would give it; the target's
 * object is copied to {@code -o} and the rest of the link's output removed.
 */
@Command(
    name = "mkoffload",
    mixinStandardHelpOptions = true,
    description = {
      "Build one offload target's wrapper object by hand:",
      "  --target nvptx-none|amdgcn-amdhsa [-march=A] [--gcc GCC]",
      "  [GCC-OPTIONS] OBJECTS -o OUT.o",
      "The driver's variables come from 'GCC -###' (default gcc-12);",
      "lto-wrapper and mkoffload run as in a real link, and the",
      "sub-commands they ran are printed on stderr."
    })
final class MkoffloadStandaloneCommand implements Callable<Integer> {
  private final ToolContext context;
  private final Path libexec;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Unmatched List<String> words;

  MkoffloadStandaloneCommand(ToolContext context, Path libexec) {
    this.context = context;
    this.libexec = libexec;
  }

  @Override
  public Integer call() throws IOException {
    StandaloneArgs args = StandaloneArgs.parse(words == null ? List.of() : words, true);
    String target =
        args.target()
            .orElseThrow(() -> new IllegalArgumentException("expected --target T, found none"));
    Path output =
        context
            .workingDirectory()
            .resolve(
                args.output()
                    .orElseThrow(
                        () -> new IllegalArgumentException("expected -o FILE, found none")));
    List<String> inputs = StandaloneLink.inputs(args.gccArgs());
    if (inputs.isEmpty()) {
      throw new IllegalArgumentException("expected object files with offload IR, found none");
    }
    List<String> gccArgs = new ArrayList<>();
    if (args.gccArgs().stream().noneMatch(a -> a.equals("-fopenmp") || a.equals("-fopenacc"))) {
      gccArgs.add("-fopenmp");
    }
    gccArgs.add("-foffload=" + target);
    args.march().ifPresent(m -> gccArgs.add("-foffload-options=" + target + "=-march=" + m));
    gccArgs.addAll(args.gccArgs());
    PrintWriter err = new PrintWriter(context.err(), true);
    Path scratch =
        ScratchFolders.create(
            TempDirectory.choose(context.environment(), context.workingDirectory()),
            "offlink-mkoffload-");
    try {
      Path tmp = Files.createDirectories(scratch.resolve("tmp"));
      SystemProcessRunner runner =
          new SystemProcessRunner(RunnerOptions.quiet(context.err(), scratch));
      StandaloneLink.Result r =
          new StandaloneLink(runner, libexec, context.environment(), context.workingDirectory())
              .run(args.gcc(), gccArgs, inputs, scratch.resolve("report.pb"), tmp, err);
      StandaloneLink.describe(r, err);
      Target built =
          r.report().getTargetsList().stream()
              .filter(t -> t.getName().equals(target))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "expected lto-wrapper to build "
                              + target
                              + ", found no such target"
                              + " (exit status "
                              + r.run().exitStatus()
                              + ")"));
      if (built.getStatus() != TargetStatus.TARGET_STATUS_OK) {
        err.println("offlink: error: " + target + ": " + built.getError());
        return 1;
      }
      Path object = context.workingDirectory().resolve(built.getObject());
      AtomicFiles.write(output, Files.readAllBytes(object));
      err.println("offlink: " + target + " wrapper object written to " + output);
      return 0;
    } finally {
      ScratchFolders.delete(scratch);
    }
  }
}
