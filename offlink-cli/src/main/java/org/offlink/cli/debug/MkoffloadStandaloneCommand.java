package org.offlink.cli.debug;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.offlink.ltowrapper.report.proto.Target;
import org.offlink.ltowrapper.report.proto.TargetStatus;
import org.offlink.runtime.AtomicFiles;
import org.offlink.runtime.LinkContext;
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
      "Build one target's wrapper object without the gcc driver:",
      "  --target nvptx-none|amdgcn-amdhsa [-march=A] [--gcc GCC]",
      "  [GCC-OPTIONS] OBJECTS -o OUT.o",
      "The driver's variables come from 'GCC -###' (default gcc-12);",
      "lto-wrapper and mkoffload run as in a real link, and the",
      "sub-commands they ran are printed on stderr."
    })
final class MkoffloadStandaloneCommand extends StandaloneCommand {
  MkoffloadStandaloneCommand(LinkContext context, Path libexec) {
    super(context, libexec);
  }

  @Override
  public Integer call() throws IOException {
    StandaloneArgs args = args(true);
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
    return inScratch(
        "offlink-mkoffload-",
        (link, scratch, err) -> {
          Path tmp = Files.createDirectories(scratch.resolve("tmp"));
          StandaloneLink.Result r =
              link.run(args.gcc(), gccArgs, inputs, scratch.resolve("report.pb"), tmp, err);
          StandaloneLink.describe(r, err);
          return copyObject(r, target, output, err);
        });
  }

  /** Copies {@code target}'s wrapper object to {@code output}; 1 when it was not built. */
  private int copyObject(StandaloneLink.Result r, String target, Path output, PrintWriter err)
      throws IOException {
    Target built =
        r.report().getTargetsList().stream()
            .filter(t -> t.getName().equals(target))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "expected lto-wrapper to build "
                            + target
                            + ", found no such target (exit status "
                            + r.run().exitStatus()
                            + ")"));
    if (built.getStatus() != TargetStatus.TARGET_STATUS_OK) {
      err.println("offlink: error: " + target + ": " + built.getError());
      return 1;
    }
    Path object = context.workingDirectory().resolve(built.getObject());
    AtomicFiles.write(context.scope(), output, Files.readAllBytes(object));
    err.println("offlink: " + target + " wrapper object written to " + output);
    return 0;
  }
}
