package org.offlink.cli.streamer;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.offlink.streamer.edit.ObjectEditor;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code rename}: rename a section prefix, by default legacy {@code .gnu.target_lto_}. */
@Command(
    name = "rename",
    mixinStandardHelpOptions = true,
    description = "Write a copy of FILE with section-name prefix FROM replaced by TO.")
final class RenameCommand implements Callable<Integer> {
  @CommandLine.ParentCommand SectionStreamerMain parent;

  @Option(names = "--from", paramLabel = "FROM", description = "Default: .gnu.target_lto_")
  String from = ObjectEditor.LEGACY_TARGET_LTO_PREFIX;

  @Option(names = "--to", paramLabel = "TO", description = "Default: .gnu.offload_lto_")
  String to = ObjectEditor.OFFLOAD_LTO_PREFIX;

  @Option(names = "-o", required = true, paramLabel = "OUT", description = "Output object.")
  Path output;

  @Parameters(index = "0", paramLabel = "FILE", description = "Relocatable ELF64 object.")
  String file;

  @Override
  public Integer call() throws Exception {
    ObjectEditor.builder()
        .renameSections(from, to)
        .build()
        .apply(parent.scope(), Inputs.plainObject(file), output);
    return 0;
  }
}
