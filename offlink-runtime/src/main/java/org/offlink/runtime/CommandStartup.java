package org.offlink.runtime;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The process edge of every offlink command: what its {@code main} does first and last, and the
 * only place below the {@code *Main} classes that reads the process's environment, folder and
 * streams or ends the JVM. {@link #start} registers the {@link ProcessLinks} hook (a signal removes
 * the link's temporary files) and makes the one {@link LinkContext} of the command's run; {@link
 * #exit} ends the process.
 */
public final class CommandStartup {
  private CommandStartup() {}

  /**
   * The name of the main thread once the hook is registered and the files a signal must remove from
   * the start are tracked. The launcher, which stays the JVM's parent, reads it from {@code
   * /proc/PID/task/TID/comm} when it gets a signal: before this point the JVM can clean up nothing
   * (and the JDK prints {@code Runtime.exit(143) logging failed} if the signal comes in its first
   * milliseconds), so the launcher ends it with SIGKILL and removes what it can itself; afterwards
   * it passes the signal on (see the launcher).
   */
  public static final String READY_THREAD_NAME = "offlink-main";

  /**
   * Prepares the process and returns the context of its one link: {@code System.getenv} with the
   * launcher's locale override undone, the JVM's working folder, {@code System.in/out/err}, the
   * process's umask.
   */
  public static LinkContext start() {
    return start(context -> {});
  }

  /**
   * As {@link #start()}, running {@code early} on the context (the place to track what a signal
   * must remove, such as lto-wrapper's {@code -foffload-objects=} list) before the launcher is told
   * the JVM is ready. Said after it, a signal that came in between would be passed on to a JVM that
   * had nothing tracked yet, and the list stayed (seen under load in a fresh trixie container).
   */
  public static LinkContext start(Consumer<LinkContext> early) {
    Runtime.getRuntime().addShutdownHook(ProcessLinks.shutdownHook());
    Path cwd = Path.of("").toAbsolutePath();
    WorkingDirectory.useProcessDirectory(cwd);
    LinkContext context =
        LinkContext.of(
            LinkContext.callerEnvironment(System.getenv()),
            cwd,
            System.in,
            System.out,
            System.err,
            LinkScope.withProcessUmask());
    ProcessLinks.opened(context.scope());
    early.accept(context);
    Thread.currentThread().setName(READY_THREAD_NAME);
    return context;
  }

  /**
   * Ends the process with {@code status}, for {@code main} only.
   *
   * <p>A run that finished removes its leftover temporary files itself ({@link LinkScope#close}),
   * flushes stdout and stderr and halts: {@code System.exit} would first log the exit through
   * {@code System.Logger} (JDK 21+), whose first use looks for a logging backend in every jar of
   * the class path, about 25 ms at the end of every link for nothing. The shutdown hook has nothing
   * else to do: the files are swept, and every child was waited for.
   *
   * <p>During a signal's shutdown the main thread may still finish (its children were just ended,
   * so with a failure): it then waits for the shutdown to end the process with 128 + the signal,
   * instead of racing it with its own status (the JVM halts at once on a non-zero {@code
   * System.exit} during shutdown).
   */
  public static void exit(LinkContext context, int status) {
    if (!ProcessLinks.shuttingDown()) {
      context.scope().close();
      // The scope stays registered until the halt: a signal before it still cancels the link,
      // which removes what it handed to the linker (LinkScope#handOver), as GCC's tool_cleanup
      // does until lto-wrapper exits; the shutdown then ends the process with 128 + the signal.
      if (!ProcessLinks.shuttingDown()) {
        flush(context.out());
        flush(context.err());
        Runtime.getRuntime().halt(status);
      }
    }
    while (ProcessLinks.shuttingDown()) {
      try {
        Thread.sleep(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    System.exit(status);
  }

  private static void flush(PrintStream stream) {
    stream.flush();
  }
}
