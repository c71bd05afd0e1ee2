package org.offlink.bridge.process;

import java.io.IOException;
import java.nio.file.Path;
import org.offlink.runtime.LinkScope;
import org.offlink.runtime.TempDirectory;

/**
 * Where {@link CollectExecute} gets a fresh temporary response file and how it gives it back, so
 * that each tool keeps tracking its temporary files its own way (mkoffload's runner directly in its
 * link's {@link LinkScope}, lto-wrapper through its run's temp-file scope) and an interrupt still
 * removes every one.
 */
public interface ScratchFiles {
  /** Creates a new empty temp file ({@code make_temp_file ("")}), tracked for removal. */
  Path create() throws IOException;

  /** Deletes {@code file}, made by {@link #create}, and stops tracking it. */
  void delete(Path file) throws IOException;

  /**
   * Files made by {@link TempDirectory#createFile} in {@code directory}, tracked by {@code scope}.
   */
  static ScratchFiles in(LinkScope scope, Path directory) {
    return new ScratchFiles() {
      @Override
      public Path create() throws IOException {
        return TempDirectory.createFile(scope, directory, "");
      }

      @Override
      public void delete(Path file) throws IOException {
        TempDirectory.delete(scope, file);
      }
    };
  }
}
