package org.offlink.cli.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.offlink.runtime.TempDirectory;

/** Private scratch folders for replays and explanations: created 0700, removed with contents. */
public final class ScratchFolders {
  private ScratchFolders() {}

  /** A new folder {@code <prefix>XXXX} in {@code tempDirectory}, mode 0700. */
  public static Path create(Path tempDirectory, String prefix) throws IOException {
    return Files.createTempDirectory(
        tempDirectory,
        prefix,
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
  }

  /** Removes {@code dir} and everything under it, not following links; best effort. */
  public static void delete(Path dir) {
    TempDirectory.deleteTree(dir);
  }
}
