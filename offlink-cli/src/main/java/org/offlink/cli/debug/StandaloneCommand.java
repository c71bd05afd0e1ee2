package org.offlink.cli.debug;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.offlink.bridge.process.RunnerOptions;
import org.offlink.bridge.process.SystemProcessRunner;
import org.offlink.cli.replay.ScratchFolders;
import org.offlink.runtime.LinkContext;
import picocli.CommandLine;

/**
 * What {@code offlink lto-wrapper} and {@code offlink mkoffload} share: every argument reaches
 * {@link StandaloneArgs} unparsed, and the link runs with a scratch folder (its report, and for
 * mkoffload its temporary files) that is removed afterwards.
 */
abstract class StandaloneCommand implements Callable<Integer> {
  /** The body of a run: the link over the scratch folder. */
  interface Body {
    int run(StandaloneLink link, Path scratch, PrintWriter err) throws IOException;
  }

  final LinkContext context;
  final Path libexec;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Unmatched List<String> words;

  StandaloneCommand(LinkContext context, Path libexec) {
    this.context = context;
    this.libexec = libexec;
  }

  /** The arguments; {@code -o} is ours when {@code ownOutput}. */
  StandaloneArgs args(boolean ownOutput) {
    return StandaloneArgs.parse(words == null ? List.of() : words, ownOutput);
  }

  /** Runs {@code body} with a fresh scratch folder named {@code prefix...}, then removes it. */
  int inScratch(String prefix, Body body) throws IOException {
    Path cwd = context.workingDirectory();
    Path scratch = ScratchFolders.create(context.tempDirectory(), prefix);
    try {
      SystemProcessRunner runner =
          new SystemProcessRunner(RunnerOptions.quiet(ReplayCommand.inScratch(context, scratch)));
      StandaloneLink link = new StandaloneLink(runner, libexec, context.environment(), cwd);
      return body.run(link, scratch, new PrintWriter(context.err(), true));
    } finally {
      ScratchFolders.delete(scratch);
    }
  }
}
