package org.offlink.cli.streamer;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import org.offlink.streamer.edit.ObjectEditor;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

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

  @Option(names = "-o", required = true, paramLabel = "OUT", description = "Output object.")
  Path output;

  @Parameters(index = "0", paramLabel = "FILE", description = "Relocatable ELF64 object.")
  String file;

  @Override
  public Integer call() throws Exception {
    Predicate<String> which =
        patterns == null ? ObjectEditor.OFFLOAD_SECTIONS : SectionPattern.anyOf(patterns);
    ObjectEditor.builder()
        .removeSections(which)
        .build()
        .apply(parent.scope(), Inputs.plainObject(file), output);
    return 0;
  }
}
