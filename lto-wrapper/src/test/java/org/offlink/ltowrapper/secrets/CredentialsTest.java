package org.offlink.ltowrapper.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Credentials never reach what offlink records, whatever form they were given in (item 11). */
class CredentialsTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "https://user:s3cr3t@cache.example/p | https://***@cache.example/p",
        "http://user:pa/ss@cache.example:8080/ | http://***@cache.example:8080/",
        "http://us@er:p@ss@cache.example/p | http://***@cache.example/p",
        "http://token@cache.example/ | http://***@cache.example/",
        "https://cache.example/p?access_token=s3cr3t | https://cache.example/p?***",
        "https://cache.example/p | https://cache.example/p",
        "-j4 OFFLINK_REMOTE_CACHE=http://u:s3cr3t@h/ x | -j4 OFFLINK_REMOTE_CACHE=http://***@h/ x",
        "-j4 -- CACHE_TOKEN=s3cr3t | -j4 -- CACHE_TOKEN=***",
        "'-o' 'p' '-O2' | '-o' 'p' '-O2'",
        "-j4 --jobserver-auth=3,4 | -j4 --jobserver-auth=3,4",
      })
  void urlsAndSecretAssignmentsAreMasked(String value, String recorded) {
    assertEquals(recorded, Credentials.masked("MAKEFLAGS", value));
  }

  @Test
  void aPasswordWithAnEscapedSpaceIsMaskedWhole() {
    String v = "-- OFFLINK_REMOTE_CACHE=http://u:pa\\ ss@h/";
    assertEquals("-- OFFLINK_REMOTE_CACHE=http://***@h/", Credentials.masked("MAKEFLAGS", v));
  }

  @Test
  void aVariableNamedForASecretIsMaskedWhole() {
    for (Map.Entry<String, String> e :
        Map.of(
                "OFFLINK_REMOTE_CACHE_CREDENTIALS", "Bearer s3cr3t",
                "OFFLINK_CACHE_TOKEN", "s3cr3t",
                "NETRC", "/home/me/.netrc")
            .entrySet()) {
      assertEquals(Credentials.MASK, Credentials.masked(e.getKey(), e.getValue()), e.getKey());
    }
    assertEquals("", Credentials.masked("OFFLINK_REMOTE_CACHE_CREDENTIALS", ""));
    assertEquals("/usr/bin:/bin", Credentials.masked("PATH", "/usr/bin:/bin"));
    assertFalse(Credentials.secretName("COLLECT_GCC_OPTIONS"));
    assertFalse(Credentials.secretName("OFFLOAD_TARGET_DEFAULT"));
  }
}
