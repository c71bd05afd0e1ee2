package org.offlink.ltowrapper.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class NetrcReaderTest {
  private static final String NETRC =
      "machine first.example login a password pa\n"
          + "default login d password pd\n"
          + "machine Cache.Example\n"
          + "  account acct login c\n"
          + "  macdef init\n"
          + "  machine cache.example login macro password macro\n"
          + "\n"
          + "  password pc\n"
          + "machine cache.example login second password p2\n"
          + "machine half.example login h\n";

  @Test
  void theFirstMachineEntryForTheHostWinsIgnoringCaseAccountAndMacros() {
    assertEquals(Optional.of(new NetrcEntry("c", "pc")), NetrcReader.find(NETRC, "cache.example"));
    assertEquals(Optional.of(new NetrcEntry("a", "pa")), NetrcReader.find(NETRC, "first.example"));
  }

  @Test
  void anotherHostOrAnIncompleteEntryGetsTheDefault() {
    assertEquals(Optional.of(new NetrcEntry("d", "pd")), NetrcReader.find(NETRC, "other.example"));
    assertEquals(Optional.of(new NetrcEntry("d", "pd")), NetrcReader.find(NETRC, "half.example"));
  }

  @Test
  void withoutADefaultAnotherHostGetsNothing() {
    assertEquals(Optional.empty(), NetrcReader.find("machine a login u password p", "b"));
    assertEquals(Optional.empty(), NetrcReader.find("", "b"));
  }

  @Test
  void theEntryNeverPrintsItsPassword() {
    assertFalse(new NetrcEntry("u", "secret").toString().contains("secret"));
  }
}
