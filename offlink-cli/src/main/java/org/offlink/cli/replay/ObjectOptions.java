package org.offlink.cli.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.io.OptsSectionName;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.opts.OptionQuoting;
import org.offlink.streamer.opts.OptsSection;

/**
 * The options a bundle's objects carry for the accel compiler: lto-wrapper merges each object's
 * {@code .gnu.offload_lto_.opts} and hands their {@code -foffload-options=} and {@code -Xassembler}
 * words to mkoffload, so an object of a bundle could name a {@code -wrapper} or a plugin as well as
 * its command line. They are vetted like the command line's ({@link ReplayOptions#objectOptions})
 * before the replay runs. A file that is not an object is left to lto-wrapper, which reports it.
 */
final class ObjectOptions {
  private ObjectOptions() {}

  /**
   * Checks the objects {@code spellings} name (as lto-wrapper reads them: a path, or an archive
   * member {@code FILE@0xOFFSET}, relative to {@code cwd}).
   *
   * @throws IllegalArgumentException one line naming the object and the refused option
   */
  static void check(List<String> spellings, Path cwd, ReplayOptions options) throws IOException {
    for (String spelling : spellings) {
      InputFile input = InputFile.parse(spelling, cwd);
      if (!Files.isRegularFile(input.file())) {
        continue;
      }
      for (String quoted : offloadOpts(input)) {
        List<String> words;
        try {
          words = OptionQuoting.parse(quoted);
        } catch (RuntimeException malformed) {
          continue; // lto-wrapper reports a malformed section itself
        }
        options.objectOptions(spelling + " (.gnu.offload_lto_.opts)", words);
      }
    }
  }

  private static List<String> offloadOpts(InputFile input) throws IOException {
    long length = Files.size(input.file()) - input.offset();
    if (length <= 0) {
      return List.of();
    }
    try (ElfFile elf = ElfReader.read(input.file(), input.offset(), length)) {
      Optional<ElfSection> s = elf.section(OptsSectionName.OFFLOAD.sectionName());
      return s.isPresent() ? OptsSection.split(elf.readSectionData(s.get())) : List.of();
    } catch (MalformedObjectException notAnObject) {
      return List.of();
    }
  }

  /** The objects a replayed link reads: the offload list's entries and the plain inputs. */
  static List<String> spellings(List<String> offloadListLines, List<String> args) {
    List<String> all = new ArrayList<>();
    for (int i = 1; i < offloadListLines.size(); i++) {
      if (!offloadListLines.get(i).isEmpty()) {
        all.add(offloadListLines.get(i));
      }
    }
    for (String a : args) {
      if (!a.startsWith("-") && !a.startsWith("@")) {
        all.add(a);
      }
    }
    return all;
  }
}
