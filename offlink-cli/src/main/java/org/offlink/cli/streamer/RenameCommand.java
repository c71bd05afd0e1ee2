package org.offlink.cli.streamer;

import java.util.concurrent.Callable;
import org.offlink.streamer.edit.ObjectEditor;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

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

  @CommandLine.Mixin EditedCopy copy;

  @Override
  public Integer call() throws Exception {
    copy.write(ObjectEditor.builder().renameSections(from, to), parent.scope());
    return 0;
  }
}
