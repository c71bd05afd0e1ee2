package org.offlink.cli.streamer;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.offlink.streamer.edit.ObjectEditor;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.lto.LtoPrefix;
import org.offlink.streamer.lto.LtoSectionName;
import org.offlink.streamer.opts.OptionQuoting;
import org.offlink.streamer.opts.OptsSection;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code opts}: the options recorded in an object's {@code .opts} section (one line per
 * NUL-terminated string, in GCC's COLLECT_GCC_OPTIONS quoting), or rewrite them.
 */
@Command(
    name = "opts",
    mixinStandardHelpOptions = true,
    description = {
      "Print the options of the .gnu.offload_lto_.opts section (or the host .gnu.lto_.opts).",
      "With --set, write a copy of FILE whose .opts section holds the given options."
    })
final class OptsCommand implements Callable<Integer> {
  @CommandLine.ParentCommand SectionStreamerMain parent;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--host", description = "Use the host LTO stream's .gnu.lto_.opts.")
  boolean host;

  @Option(names = "--one-per-line", description = "Print each option unquoted on its own line.")
  boolean onePerLine;

  @Option(
      names = "--set",
      paramLabel = "OPTIONS",
      description = "New options in GCC quoting ('-fopenmp' '-foffload-abi=lp64'); needs -o.")
  String set;

  @Option(names = "-o", paramLabel = "OUT", description = "Output object for --set.")
  Path output;

  @Parameters(index = "0", paramLabel = "FILE", description = "Object or lib.a@0xOFF.")
  String file;

  @Override
  public Integer call() throws Exception {
    String section = LtoSectionName.opts(host ? LtoPrefix.HOST : LtoPrefix.OFFLOAD).format();
    if (set != null) {
      if (output == null) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--set needs -o OUT");
      }
      byte[] data = OptsSection.format(List.of(OptionQuoting.parse(set)));
      EditedCopy.write(
          ObjectEditor.builder().replaceSectionData(section, data), parent.scope(), file, output);
      return 0;
    }
    List<List<String>> strings;
    try (ElfFile elf = Inputs.single(file).open()) {
      ElfSection s = SectionData.require(elf, section);
      strings =
          OptsSection.parse(elf.path(), elf.baseOffset() + s.offset(), elf.readSectionData(s));
    }
    PrintWriter out = spec.commandLine().getOut();
    for (List<String> options : strings) {
      if (onePerLine) {
        options.forEach(out::println);
      } else {
        out.println(OptionQuoting.format(new ArrayList<>(options)));
      }
    }
    return 0;
  }
}
