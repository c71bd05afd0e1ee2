package org.offlink.cli.streamer;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.offlink.runtime.AtomicFiles;
import org.offlink.streamer.elf.ElfFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code extract}: write one section's payload to a file, raw or decompressed. */
@Command(
    name = "extract",
    mixinStandardHelpOptions = true,
    description = "Write the payload of SECTION to OUT (atomically), raw or decompressed.")
final class ExtractCommand implements Callable<Integer> {
  @CommandLine.ParentCommand SectionStreamerMain parent;

  @Option(
      names = {"-d", "--decompress"},
      description = "Undo the LTO section's zstd/zlib compression.")
  boolean decompress;

  @Option(names = "-o", required = true, paramLabel = "OUT", description = "Output file.")
  Path output;

  @Parameters(index = "0", paramLabel = "FILE", description = "Object or lib.a@0xOFF.")
  String file;

  @Parameters(index = "1", paramLabel = "SECTION", description = "Section name.")
  String section;

  @Override
  public Integer call() throws Exception {
    byte[] data;
    try (ElfFile elf = Inputs.single(file).open()) {
      data = SectionData.read(elf, section, decompress);
    }
    AtomicFiles.write(parent.scope(), output, data);
    return 0;
  }
}
