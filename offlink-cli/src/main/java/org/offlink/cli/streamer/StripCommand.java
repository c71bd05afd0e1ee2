package org.offlink.cli.streamer;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import org.offlink.streamer.edit.ObjectEditor;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code strip}: remove sections by pattern; by default every offload section (host-only). */
@Command(
    name = "strip",
    mixinStandardHelpOptions = true,
    description = {
      "Write a copy of FILE without the matching sections. Default: the offload IR and host",
      "offload tables (.gnu.offload_lto_*, .gnu.target_lto_*, .gnu.offload_funcs/vars),",
      "which makes a host-only object. Symbols and relocations are repaired."
    })
final class StripCommand implements Callable<Integer> {
  @CommandLine.ParentCommand SectionStreamerMain parent;

  @Option(
      names = {"-p", "--pattern"},
      paramLabel = "GLOB",
      description = "Section names to remove (repeatable; * and ? wildcards).")
  List<String> patterns;

  @CommandLine.Mixin EditedCopy copy;

  @Override
  public Integer call() throws Exception {
    Predicate<String> which =
        patterns == null ? ObjectEditor.OFFLOAD_SECTIONS : SectionPattern.anyOf(patterns);
    copy.write(ObjectEditor.builder().removeSections(which), parent.scope());
    return 0;
  }
}
