package org.offlink.cli.debug;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.offlink.cli.replay.BundleReader;
import org.offlink.cli.replay.OneLine;
import org.offlink.cli.replay.ReportFiles;
import org.offlink.runtime.LinkContext;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code offlink explain REPORT|BUNDLE}: a link report (JSON or binary) or a reproducer bundle told
 * in plain words by {@link LinkExplainer}.
 */
@Command(
    name = "explain",
    mixinStandardHelpOptions = true,
    description = {
      "Explain a link report or a reproducer bundle in plain words.",
      "Reads OFFLINK_REPORT files (.json or binary) and bundles (.tar or folder): the",
      "targets and why, the inputs' IR and options, each image, the failed steps."
    })
final class ExplainCommand implements Callable<Integer> {
  private final LinkContext context;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "REPORT|BUNDLE", description = "What to explain.")
  Path file;

  ExplainCommand(LinkContext context) {
    this.context = context;
  }

  @Override
  public Integer call() throws IOException {
    Path source = context.workingDirectory().resolve(file);
    if (!Files.exists(source)) {
      throw new IllegalArgumentException(file + ": No such file or directory");
    }
    PrintWriter out = spec.commandLine().getOut();
    boolean bundle = Files.isDirectory(source) || source.getFileName().toString().endsWith(".tar");
    if (!bundle) {
      LinkExplainer.explain(ReportFiles.read(source), Optional.empty())
          .forEach(l -> out.println(OneLine.of(l)));
      return 0;
    }
    // A bundle is only read: its manifest and report, straight from the tar or the folder.
    BundleReader.Contents contents = BundleReader.read(source);
    LinkExplainer.explain(contents.report(), Optional.of(contents.manifest()))
        .forEach(l -> out.println(OneLine.of(l)));
    return 0;
  }
}
