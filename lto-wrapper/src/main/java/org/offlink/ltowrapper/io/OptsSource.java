package org.offlink.ltowrapper.io;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Reads the raw option strings of an object's {@code .opts} section: the section's NUL-terminated
 * strings in order, still in COLLECT_GCC_OPTIONS quoting. In production this is {@code
 * LtoWrapperWiring.readOpts}, over the section-streamer ELF reader ({@code ElfReader.read(path,
 * offset, length)}; for an archive member, {@code offset} is the member data offset from the
 * {@code @0x...} suffix and the length runs to the end of the member).
 */
@FunctionalInterface
public interface OptsSource {
  /**
   * Returns the strings, or empty if the input is not a readable object or has no such section (GCC
   * treats both as "no options").
   *
   * @throws IOException if the file cannot be read at all
   */
  Optional<List<String>> read(InputFile input, OptsSectionName section) throws IOException;
}
