package org.offlink.cli.streamer;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import org.offlink.streamer.edit.ObjectEditor;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.elf.SectionType;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code add}: add sections to a copy of an object, either copied from another object (by default
 * its offload IR, {@code .gnu.offload_lto_*}) or from files ({@code --section NAME=FILE}).
 */
@Command(
    name = "add",
    mixinStandardHelpOptions = true,
    description = {
      "Write a copy of FILE with sections added: copied from another object (--from; default",
      "pattern .gnu.offload_lto_*) or read from files (--section NAME=DATAFILE)."
    })
final class AddCommand implements Callable<Integer> {
  @CommandLine.ParentCommand SectionStreamerMain parent;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--from", paramLabel = "OBJECT", description = "Copy sections from this object.")
  String from;

  @Option(
      names = {"-p", "--pattern"},
      paramLabel = "GLOB",
      description = "With --from: which sections (repeatable). Default: .gnu.offload_lto_*")
  List<String> patterns;

  @Option(
      names = "--section",
      paramLabel = "NAME=DATAFILE",
      description = "Add a PROGBITS section with DATAFILE's bytes (repeatable).")
  List<String> sections;

  @CommandLine.Mixin EditedCopy copy;

  @Override
  public Integer call() throws Exception {
    if ((from == null) == (sections == null)) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "give either --from OBJECT or --section NAME=DATAFILE");
    }
    ObjectEditor.Builder edits = ObjectEditor.builder();
    if (from != null) {
      addFrom(edits);
    } else {
      for (String s : sections) {
        int eq = s.indexOf('=');
        if (eq <= 0) {
          throw new CommandLine.ParameterException(
              spec.commandLine(), "expected --section NAME=DATAFILE, found '" + s + "'");
        }
        byte[] data = SectionData.readDataFile(Path.of(s.substring(eq + 1)));
        edits.addSection(s.substring(0, eq), SectionType.PROGBITS, 0, 1, data);
      }
    }
    copy.write(edits, parent.scope());
    return 0;
  }

  private void addFrom(ObjectEditor.Builder edits) throws Exception {
    Predicate<String> which =
        SectionPattern.anyOf(patterns == null ? List.of(".gnu.offload_lto_*") : patterns);
    try (ElfFile source = Inputs.single(from).open()) {
      for (ElfSection s : source.sections()) {
        if (s.index() != 0 && which.test(s.name())) {
          edits.addSection(s.name(), s.type(), s.flags(), s.addralign(), source.readSectionData(s));
        }
      }
    }
  }
}
