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

  /**
   * The name of the main thread once the hook is registered. The launcher, which stays the JVM's
   * parent, reads it from {@code /proc/PID/task/TID/comm} when it gets a signal: before this point
   * the JVM can clean up nothing (and the JDK prints {@code Runtime.exit(143) logging failed} if
   * the signal comes in its first milliseconds), so the launcher ends it with SIGKILL and removes
   * what it can itself; afterwards it passes the signal on (see the launcher).
   */
  public static final String READY_THREAD_NAME = "offlink-main";

  /** Prepares the process; {@code environment} and {@code workingDirectory} are the command's. */
  public static void prepare(Map<String, String> environment, Path workingDirectory) {
    Runtime.getRuntime().addShutdownHook(ExitCleanup.shutdownHook());
    Thread.currentThread().setName(READY_THREAD_NAME);
    ZstdDecoding.unpackInto(TempDirectory.choose(environment, workingDirectory));
  }

  /**
   * Ends the process with {@code status}, for {@code main} only.
   *
   * <p>A run that finished removes its leftover temporary files itself, flushes stdout and stderr
   * and halts: {@code System.exit} would first log the exit through {@code System.Logger} (JDK
   * 21+), whose first use looks for a logging backend in every jar of the class path, about 25 ms
   * at the end of every link for nothing. The shutdown hook has nothing else to do: the files are
   * swept, and every child was waited for.
   *
   * <p>During a signal's shutdown the main thread may still finish (its children were just ended,
   * so with a failure): it then waits for the shutdown to end the process with 128 + the signal,
   * instead of racing it with its own status (the JVM halts at once on a non-zero {@code
   * System.exit} during shutdown).
   */
  public static void exit(int status) {
    if (ExitCleanup.finishNormally()) {
      System.out.flush();
      System.err.flush();
      Runtime.getRuntime().halt(status);
    }
    while (ExitCleanup.shuttingDown()) {
      try {
        Thread.sleep(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    System.exit(status);
  }
}
