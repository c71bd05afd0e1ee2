package org.offlink.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ToolContextTest {
  @Test
  void theLaunchersLocaleOverrideIsUndoneForChildren() {
    // The launcher ran the JVM with LC_ALL=C.UTF-8 and kept the caller's LC_ALL=C.
    Map<String, String> launched =
        Map.of("LC_ALL", "C.UTF-8", ToolContext.CALLER_LC_ALL, "C", "PATH", "/bin");
    assertEquals(Map.of("LC_ALL", "C", "PATH", "/bin"), ToolContext.callerEnvironment(launched));
  }

  @Test
  void anUnsetCallerLcAllIsUnsetAgain() {
    Map<String, String> launched =
        Map.of("LC_ALL", "C.UTF-8", ToolContext.CALLER_LC_ALL, ToolContext.UNSET, "LANG", "C");
    assertEquals(Map.of("LANG", "C"), ToolContext.callerEnvironment(launched));
  }

  @Test
  void withoutTheMarkerTheEnvironmentIsKept() {
    Map<String, String> env = Map.of("LC_ALL", "de_DE.UTF-8");
    assertEquals(env, ToolContext.callerEnvironment(env));
  }
}
