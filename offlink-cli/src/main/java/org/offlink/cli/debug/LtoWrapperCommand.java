package org.offlink.cli.debug;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.offlink.runtime.LinkContext;
import picocli.CommandLine.Command;

/**
 * {@code offlink lto-wrapper [--gcc GCC] GCC-LINK-OPTIONS... OBJECTS...}: runs this tree's
 * lto-wrapper without a driver, with what {@code GCC} would have set ({@link DriverEnvironment});
 * prints the objects for the linker on stdout, as lto-wrapper does, and on stderr what was derived
 * and every sub-command it ran.
 */
@Command(
    name = "lto-wrapper",
    mixinStandardHelpOptions = true,
    description = {
      "Run offlink's lto-wrapper without the gcc driver:",
      "  [--gcc GCC] GCC-LINK-OPTIONS... OBJECTS...",
      "COLLECT_GCC, COLLECT_GCC_OPTIONS, OFFLOAD_TARGET_NAMES,",
      "COMPILER_PATH, LIBRARY_PATH come from 'GCC -### -B LIBEXEC/",
      "OPTIONS OBJECTS' (default gcc-12); the objects are passed as",
      "collect2 passes them. stdout: the objects for the linker;",
      "stderr: the variables and the sub-commands run."
    })
final class LtoWrapperCommand extends StandaloneCommand {
  LtoWrapperCommand(LinkContext context, Path libexec) {
    super(context, libexec);
  }

  @Override
  public Integer call() throws IOException {
    StandaloneArgs args = args(false);
    List<String> inputs = StandaloneLink.inputs(args.gccArgs());
    if (inputs.isEmpty()) {
      throw new IllegalArgumentException("expected object files to link, found none");
    }
    return inScratch(
        "offlink-lto-wrapper-",
        (link, scratch, err) -> {
          StandaloneLink.Result r =
              link.run(args.gcc(), args.gccArgs(), inputs, scratch.resolve("report.pb"), null, err);
          StandaloneLink.describe(r, err);
          spec.commandLine().getOut().print(r.run().stdout());
          spec.commandLine().getOut().flush();
          return r.run().exitStatus();
        });
  }
}
