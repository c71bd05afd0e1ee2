package org.offlink.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LinkContextTest {
  @Test
  void theLaunchersLocaleOverrideIsUndoneForChildren() {
    // The launcher ran the JVM with LC_ALL=C.UTF-8 and kept the caller's LC_ALL=C.
    Map<String, String> launched =
        Map.of("LC_ALL", "C.UTF-8", LinkContext.CALLER_LC_ALL, "C", "PATH", "/bin");
    assertEquals(Map.of("LC_ALL", "C", "PATH", "/bin"), LinkContext.callerEnvironment(launched));
  }

  @Test
  void anUnsetCallerLcAllIsUnsetAgain() {
    Map<String, String> launched =
        Map.of("LC_ALL", "C.UTF-8", LinkContext.CALLER_LC_ALL, LinkContext.UNSET, "LANG", "C");
    assertEquals(Map.of("LANG", "C"), LinkContext.callerEnvironment(launched));
  }

  @Test
  void theLaunchersLocpathForItsOwnLocaleIsUndoneToo() {
    Map<String, String> launched = inOwnLocale(LinkContext.UNSET, LinkContext.UNSET);
    launched.put("LANG", "de_DE.UTF-8");
    assertEquals(Map.of("LANG", "de_DE.UTF-8"), LinkContext.callerEnvironment(launched));
    assertEquals(
        Map.of("LC_ALL", "C", "LOCPATH", "/home/u/locales"),
        LinkContext.callerEnvironment(inOwnLocale("C", "/home/u/locales")));
  }

  /** The launcher ran the JVM in its C.ISO-8859-1 locale, found through LOCPATH. */
  private static Map<String, String> inOwnLocale(String callerLcAll, String callerLocpath) {
    Map<String, String> env = new HashMap<>();
    env.put("LC_ALL", "C.ISO-8859-1");
    env.put("LOCPATH", "/opt/offlink/lib/locale");
    env.put(LinkContext.CALLER_LC_ALL, callerLcAll);
    env.put(LinkContext.CALLER_LOCPATH, callerLocpath);
    return env;
  }

  @Test
  void withoutTheMarkerTheEnvironmentIsKept() {
    Map<String, String> env = Map.of("LC_ALL", "de_DE.UTF-8");
    assertEquals(env, LinkContext.callerEnvironment(env));
  }
}
