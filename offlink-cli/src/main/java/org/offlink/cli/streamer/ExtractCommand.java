package org.offlink.cli.streamer;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.offlink.runtime.AtomicFiles;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code extract}: write one section's payload to a file, raw or decompressed. */
@Command(
    name = "extract",
    mixinStandardHelpOptions = true,
    description = "Write the payload of SECTION to OUT (atomically), raw or decompressed.")
final class ExtractCommand implements Callable<Integer> {
  @CommandLine.ParentCommand SectionStreamerMain parent;

  @CommandLine.Mixin OneSection section;

  @Option(names = "-o", required = true, paramLabel = "OUT", description = "Output file.")
  Path output;

  @Override
  public Integer call() throws Exception {
    AtomicFiles.write(parent.scope(), output, section.read());
    return 0;
  }
}
