package org.offlink.bridge.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/**
 * The quiet logger itself; that the launchers' JVM really skips the logger lookup is checked on
 * that JVM by LauncherStartupIT.
 */
class ProcessStartLoggerTest {
  @Test
  void installingWhereJavaLangIsNotOpenedChangesNothingAndProcessesStillStart() throws Exception {
    ProcessStartLogger.install(); // the tests' JVM does not open java.lang: a quiet no-op
    Process p = new ProcessBuilder("true").start();
    assertEquals(0, p.waitFor());
  }

  @Test
  void theQuietLoggerLogsAtNoLevel() {
    System.Logger logger = quiet();
    for (System.Logger.Level level : System.Logger.Level.values()) {
      assertFalse(logger.isLoggable(level), level.toString());
    }
    assertEquals("java.lang.ProcessBuilder", logger.getName());
  }

  private static System.Logger quiet() {
    return ProcessStartLogger.quiet();
  }
}
