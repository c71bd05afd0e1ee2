package org.offlink.streamer.io;

import java.nio.file.Path;
import java.util.Map;

/**
 * What every offlink command's {@code main} does first, at the CLI edge: registers the {@link
 * ExitCleanup} hook (SIGINT, SIGTERM, SIGHUP remove this process's temporary files) and tells
 * {@link ZstdDecoding} to unpack zstd-jni's library into the temporary directory libiberty's rule
 * picks, not {@code java.io.tmpdir}.
 */
public final class CommandStartup {
  private CommandStartup() {}

  /** Prepares the process; {@code environment} and {@code workingDirectory} are the command's. */
  public static void prepare(Map<String, String> environment, Path workingDirectory) {
    Runtime.getRuntime().addShutdownHook(ExitCleanup.shutdownHook());
    ZstdDecoding.unpackInto(TempDirectory.choose(environment, workingDirectory));
  }
}
