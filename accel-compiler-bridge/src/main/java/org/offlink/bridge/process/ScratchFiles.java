package org.offlink.bridge.process;

import java.io.IOException;
import java.nio.file.Path;
import org.offlink.streamer.io.TempDirectory;

/**
 * Where {@link CollectExecute} gets a fresh temporary response file and how it gives it back, so
 * that each tool keeps tracking its temporary files its own way (mkoffload's runner directly in
 * {@link org.offlink.streamer.io.ExitCleanup}, lto-wrapper through its run's temp-file scope) and
 * an interrupt still removes every one.
 */
public interface ScratchFiles {
  /** Creates a new empty temp file ({@code make_temp_file ("")}), tracked for removal. */
  Path create() throws IOException;

  /** Deletes {@code file}, made by {@link #create}, and stops tracking it. */
  void delete(Path file) throws IOException;

  /** Files made by {@link TempDirectory#createFile} in {@code directory}. */
  static ScratchFiles in(Path directory) {
    return new ScratchFiles() {
      @Override
      public Path create() throws IOException {
        return TempDirectory.createFile(directory, "");
      }

      @Override
      public void delete(Path file) throws IOException {
        TempDirectory.delete(file);
      }
    };
  }
}
