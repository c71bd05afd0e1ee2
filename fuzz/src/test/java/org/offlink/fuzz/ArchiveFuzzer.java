package org.offlink.fuzz;

import java.io.IOException;
import java.nio.file.Path;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.ar.ArchiveReader;
import org.offlink.streamer.inspect.BinaryInspector;

/**
 * The archive reader (regular and thin archives, GNU and BSD names, symbol indexes) and, through
 * {@link BinaryInspector}, every member opened as an object, as {@code offlink inspect} does. A
 * thin member's name is resolved beside the archive like ar does, so this also feeds the reader
 * names of files that exist and files that do not. {@link MalformedObjectException} is the only
 * acceptable failure; a thin member that names a missing file surfaces as {@link
 * java.nio.file.NoSuchFileException}, also a clean error.
 */
public final class ArchiveFuzzer {
  private ArchiveFuzzer() {}

  /** Entry point for Jazzer's command line (scripts/fuzz.sh). */
  public static void fuzzerTestOneInput(byte[] data) throws IOException {
    Path file = FuzzFiles.write("input.a", data);
    try {
      if (ArchiveReader.isArchive(file)) {
        ArchiveReader.read(file);
      }
      BinaryInspector.inspect(file);
    } catch (MalformedObjectException | java.nio.file.NoSuchFileException e) {
      // rejected cleanly
    }
  }
}
