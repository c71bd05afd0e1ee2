package org.offlink.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * Lays out a {@link ToolDir} in an empty folder: {@code lto-wrapper} and {@code
 * accel/<target>/mkoffload}, each either a symlink (to stock GCC's tool, or to an offlink launcher)
 * or a logging shell wrapper that appends {@code <tool> <args>} to a log and execs stock GCC's
 * tool.
 */
final class ToolDirBuilder {
  private final Path dir;
  private final Path stockLibexec;
  private final String label;

  /**
   * Starts a tool folder at {@code dir} (created if needed); {@code stockLibexec} is stock GCC's
   * {@code /usr/lib/gcc/x86_64-linux-gnu/12} holding lto-wrapper and accel/.
   */
  ToolDirBuilder(Path dir, Path stockLibexec, String label) throws IOException {
    this.dir = Files.createDirectories(dir);
    this.stockLibexec = stockLibexec;
    this.label = label;
  }

  /** {@code lto-wrapper} as a symlink to stock's: a pass-through. */
  ToolDirBuilder passThroughLtoWrapper() throws IOException {
    Files.createSymbolicLink(dir.resolve("lto-wrapper"), stockLibexec.resolve("lto-wrapper"));
    return this;
  }

  /** {@code lto-wrapper} as a wrapper logging to {@code log}, then running stock's. */
  ToolDirBuilder loggingLtoWrapper(Path log) throws IOException {
    writeWrapper(
        dir.resolve("lto-wrapper"), "lto-wrapper", stockLibexec.resolve("lto-wrapper"), log);
    return this;
  }

  /** {@code accel/<target>/mkoffload} logging to {@code log}, then running stock's. */
  ToolDirBuilder loggingStockMkoffload(OffloadTarget target, Path log) throws IOException {
    Path stock = stockLibexec.resolve("accel").resolve(target.triple()).resolve("mkoffload");
    writeWrapper(mkoffloadPath(target), "mkoffload-" + target.triple(), stock, log);
    return this;
  }

  /** {@code accel/<target>/mkoffload} as a symlink to the launcher in the offlink tree. */
  ToolDirBuilder offlinkMkoffload(OffloadTarget target, Path offlinkDist) throws IOException {
    Path launcher =
        offlinkDist.resolve("libexec/offlink/accel").resolve(target.triple()).resolve("mkoffload");
    if (!Files.isExecutable(launcher)) {
      throw new IOException("no offlink mkoffload launcher at " + launcher + " (run mvn package)");
    }
    Files.createSymbolicLink(mkoffloadPath(target), launcher);
    return this;
  }

  /**
   * {@code lto-wrapper} as a symlink to offlink's launcher {@code
   * <offlinkDist>/libexec/offlink/lto-wrapper} (the launcher resolves symlinks to find its tree).
   */
  ToolDirBuilder offlinkLtoWrapper(Path offlinkDist) throws IOException {
    Path launcher = offlinkDist.resolve("libexec/offlink/lto-wrapper");
    if (!Files.isExecutable(launcher)) {
      throw new IOException(
          "no offlink lto-wrapper launcher at " + launcher + " (run mvn package)");
    }
    Files.createSymbolicLink(dir.resolve("lto-wrapper"), launcher);
    return this;
  }

  /** {@code accel/<target>/mkoffload} as a symlink to stock GCC's: an explicit pass-through. */
  ToolDirBuilder stockMkoffload(OffloadTarget target) throws IOException {
    Files.createSymbolicLink(
        mkoffloadPath(target),
        stockLibexec.resolve("accel").resolve(target.triple()).resolve("mkoffload"));
    return this;
  }

  /** The finished tool folder. */
  ToolDir build() {
    return new ToolDir(label, Optional.of(dir));
  }

  private Path mkoffloadPath(OffloadTarget target) throws IOException {
    return Files.createDirectories(dir.resolve("accel").resolve(target.triple()))
        .resolve("mkoffload");
  }

  private static void writeWrapper(Path file, String tag, Path stock, Path log) throws IOException {
    String script =
        "#!/bin/sh\n"
            + "# Logs the call, then runs stock GCC's tool with the same arguments.\n"
            + "printf '%s\\n' \""
            + tag
            + " $*\" >> "
            + quote(log)
            + "\n"
            + "exec "
            + quote(stock)
            + " \"$@\"\n";
    Files.writeString(file, script);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private static String quote(Path path) {
    String text = path.toString();
    if (text.contains("'")) {
      throw new IllegalArgumentException("quote in path " + text);
    }
    return "'" + text + "'";
  }
}
