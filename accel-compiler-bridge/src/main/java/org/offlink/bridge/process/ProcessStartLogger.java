package org.offlink.bridge.process;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ResourceBundle;
import org.offlink.runtime.JvmProperties;

/**
 * Keeps {@link ProcessBuilder#start} from looking up its {@code System.Logger}. JDK 21+ asks for a
 * logger named {@code java.lang.ProcessBuilder} at the first start (to log starts at DEBUG, which
 * nobody enables for a compiler tool), and the first such request looks for a logging backend in
 * every jar of the class path: about 30 ms of CPU before a cold JVM's first child, on the link's
 * critical path. {@link #install()} gives {@code ProcessBuilder} a logger that logs nothing
 * instead. It needs {@code --add-opens java.base/java.lang=ALL-UNNAMED} (the launchers pass it);
 * without it, on a JDK whose {@code ProcessBuilder} has no such field (17), or when logging is
 * configured ({@code java.util.logging.config.file} or {@code .class}, e.g. through {@code
 * JAVA_TOOL_OPTIONS}, to see those DEBUG lines), nothing changes.
 */
final class ProcessStartLogger implements System.Logger {
  private static final ProcessStartLogger QUIET = new ProcessStartLogger();

  private ProcessStartLogger() {}

  /** The logger {@link #install()} gives {@code ProcessBuilder}. */
  static System.Logger quiet() {
    return QUIET;
  }

  /** Installs the quiet logger if {@code ProcessBuilder} has none yet; idempotent. */
  static void install() {
    if (JvmProperties.loggingConfigured()) {
      return;
    }
    try {
      VarHandle field =
          MethodHandles.privateLookupIn(ProcessBuilder.class, MethodHandles.lookup())
              .findStaticVarHandle(ProcessBuilder.class, "LOGGER", System.Logger.class);
      field.compareAndSet((System.Logger) null, (System.Logger) QUIET);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // not opened to us, or not this JDK's ProcessBuilder: it looks its logger up itself
    }
  }

  @Override
  public String getName() {
    return "java.lang.ProcessBuilder";
  }

  @Override
  public boolean isLoggable(Level level) {
    return false;
  }

  @Override
  public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {}

  @Override
  public void log(Level level, ResourceBundle bundle, String format, Object... params) {}
}
