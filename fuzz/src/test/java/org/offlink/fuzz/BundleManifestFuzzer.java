package org.offlink.fuzz;

import java.nio.file.Path;
import org.offlink.cli.replay.BundleReader;
import org.offlink.ltowrapper.report.proto.BundledFile;
import org.offlink.ltowrapper.report.proto.ReproducerManifest;

/**
 * The reproducer bundle manifest reader ({@code manifest.json} as {@code offlink replay} reads it:
 * bounded JSON decoding, then the checks of every path, variable, digest and role). A manifest is
 * input from a stranger: any bytes must give either a manifest whose every recorded path stays
 * inside the root it is placed under, or one short line naming the file, never another exception.
 */
public final class BundleManifestFuzzer {
  private BundleManifestFuzzer() {}

  private static final String NAME = "b.tar: manifest.json";
  private static final Path ROOT = Path.of("/scratch/root");

  /** Entry point for Jazzer's command line (scripts/fuzz.sh). */
  public static void fuzzerTestOneInput(byte[] data) {
    ReproducerManifest m;
    try {
      m = BundleReader.manifest(data, NAME);
    } catch (IllegalArgumentException e) {
      String message = e.getMessage();
      if (!message.startsWith(NAME + ": ") || message.contains("\n") || message.length() > 1000) {
        throw new IllegalStateException("not one short line naming the file: " + message, e);
      }
      return; // refused cleanly
    }
    inside("working_directory", m.getWorkingDirectory());
    for (BundledFile f : m.getFilesList()) {
      inside("files[].path", f.getPath());
    }
  }

  private static void inside(String field, String path) {
    if (!path.startsWith("/") || !ROOT.resolve(path.substring(1)).normalize().startsWith(ROOT)) {
      throw new IllegalStateException(field + " accepted outside the root: " + path);
    }
  }
}
