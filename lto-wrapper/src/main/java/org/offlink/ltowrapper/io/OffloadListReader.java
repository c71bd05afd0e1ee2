package org.offlink.ltowrapper.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads the {@code -foffload-objects=} file written by the linker plugin ({@code N\n} then N names,
 * §2.7). In production this is {@code LtoWrapperWiring.readOffloadList}, over section-streamer's
 * {@code OffloadObjectListReader}.
 */
@FunctionalInterface
public interface OffloadListReader {
  /**
   * Returns the N names, in order, without line terminators.
   *
   * @throws java.nio.file.NoSuchFileException or {@link java.nio.file.AccessDeniedException} if the
   *     file cannot be opened (GCC: {@code cannot open %s})
   * @throws java.io.EOFException if fewer than N names follow (GCC: {@code invalid format of %s})
   * @throws IOException if the count cannot be read (GCC: {@code cannot read %s})
   */
  List<String> read(Path file) throws IOException;
}
