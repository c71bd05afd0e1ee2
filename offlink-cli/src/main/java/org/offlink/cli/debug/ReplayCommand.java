package org.offlink.cli.debug;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.offlink.bridge.process.RunnerOptions;
import org.offlink.bridge.process.SystemProcessRunner;
import org.offlink.cli.replay.BundleReader;
import org.offlink.cli.replay.OneLine;
import org.offlink.cli.replay.Replay;
import org.offlink.cli.replay.ReplayComparison;
import org.offlink.cli.replay.ScratchFolders;
import org.offlink.runtime.LinkContext;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code offlink replay BUNDLE}: re-runs a reproducer bundle's link in a scratch folder and says
 * whether the outcome and the device images are those recorded. Exit status 0 when they are, 1 when
 * not (or on an error).
 */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description = {
      "Re-run a reproducer bundle's link; compare outcome and images.",
      "The bundle (OFFLINK_REPRODUCE=FILE.tar, OFFLINK_REPRODUCE_ON_FAILURE=DIR) is",
      "replayed in a scratch folder with this offlink and this machine's toolchain;",
      "it is data from a stranger: nothing of it runs, nothing is written outside.",
      "Exit status 0 when the outcome and the device images are the recorded ones."
    })
final class ReplayCommand implements Callable<Integer> {
  private final LinkContext context;
  private final Path defaultLibexec;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "BUNDLE", description = "The bundle: a .tar or its folder.")
  Path bundle;

  @Option(
      names = "--keep",
      description =
          "Keep the scratch folder (inputs, replayed report, objects) and print its name.")
  boolean keep;

  @Option(
      names = "--libexec",
      paramLabel = "DIR",
      description = "The offlink libexec folder to replay with (default: this installation's).")
  Path libexec;

  ReplayCommand(LinkContext context, Path defaultLibexec) {
    this.context = context;
    this.defaultLibexec = defaultLibexec;
  }

  /** The command's run with {@code scratch} as its temporary folder. */
  static LinkContext inScratch(LinkContext context, Path scratch) {
    return new LinkContext(
        context.environment(),
        context.workingDirectory(),
        context.in(),
        context.out(),
        context.err(),
        scratch,
        context.scope());
  }

  @Override
  public Integer call() throws IOException {
    Path cwd = context.workingDirectory();
    Path tree = cwd.resolve(libexec != null ? libexec : defaultLibexec);
    if (!Files.isRegularFile(tree.resolve("lto-wrapper"))) {
      throw new IllegalArgumentException(
          tree + ": expected an offlink libexec folder with lto-wrapper, found none (--libexec)");
    }
    Path source = cwd.resolve(bundle);
    if (!Files.exists(source)) {
      throw new IllegalArgumentException(bundle + ": No such file or directory");
    }
    Path scratch = ScratchFolders.create(context.tempDirectory(), "offlink-replay-");
    PrintWriter out = spec.commandLine().getOut();
    try {
      BundleReader.Bundle opened = BundleReader.open(source, scratch.resolve("bundle"));
      SystemProcessRunner runner =
          new SystemProcessRunner(RunnerOptions.quiet(inScratch(context, scratch)));
      Optional<Path> folder = Files.isDirectory(source) ? Optional.of(source) : Optional.empty();
      Replay.Result result =
          new Replay(runner, tree, context.environment())
              .run(opened, scratch.resolve("run"), folder);
      out.println(
          "replay: ran "
              + result.run().argv().get(0)
              + " on the "
              + opened.manifest().getFilesCount()
              + " recorded inputs");
      for (String note : result.notes()) {
        out.println("replay: not applied: " + note);
      }
      if (!result.run().stderr().isBlank()) {
        out.println("replay: lto-wrapper said:");
        result.run().stderr().lines().forEach(l -> out.println("  " + OneLine.of(l)));
      }
      ReplayComparison comparison = result.comparison();
      comparison.lines().forEach(l -> out.println(OneLine.of(l)));
      return comparison.same() ? 0 : 1;
    } finally {
      if (keep) {
        out.println("replay: scratch folder kept: " + scratch);
      } else {
        ScratchFolders.delete(scratch);
      }
    }
  }
}
