package org.offlink.ltowrapper.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Where the cache lives and how large it may grow. */
class CacheSettingsTest {
  @Test
  void theFolderIsOwnThenXdgThenHome() {
    assertEquals(
        Path.of("/c"),
        CacheSettings.fromEnvironment(
                Map.of("OFFLINK_CACHE_DIR", "/c", "XDG_CACHE_HOME", "/x", "HOME", "/h"),
                Path.of("/w"))
            .orElseThrow()
            .directory());
    assertEquals(
        Path.of("/x/offlink"),
        CacheSettings.fromEnvironment(Map.of("XDG_CACHE_HOME", "/x", "HOME", "/h"), Path.of("/w"))
            .orElseThrow()
            .directory());
    assertEquals(
        Path.of("/h/.cache/offlink"),
        CacheSettings.fromEnvironment(Map.of("XDG_CACHE_HOME", "rel", "HOME", "/h"), Path.of("/w"))
            .orElseThrow()
            .directory(),
        "a relative XDG_CACHE_HOME is ignored, as the XDG rules say");
    assertEquals(Optional.empty(), CacheSettings.fromEnvironment(Map.of(), Path.of("/w")));
    assertEquals(
        Path.of("/w/rel"),
        CacheSettings.fromEnvironment(Map.of("OFFLINK_CACHE_DIR", "rel"), Path.of("/w"))
            .orElseThrow()
            .directory(),
        "a relative OFFLINK_CACHE_DIR is the link's working folder's, not the JVM's");
    assertEquals(
        CacheSettings.DEFAULT_MAX,
        CacheSettings.fromEnvironment(Map.of("HOME", "/h"), Path.of("/w"))
            .orElseThrow()
            .maxBytes());
  }

  @Test
  void sizesTakeBinarySuffixesAndBadOnesNameTheVariable() {
    assertEquals(5L << 30, CacheSettings.parseSize("V", "5G"));
    assertEquals(500L << 20, CacheSettings.parseSize("V", "500m"));
    assertEquals(1L << 40, CacheSettings.parseSize("V", "1T"));
    assertEquals(4096, CacheSettings.parseSize("V", "4K"));
    assertEquals(1048576, CacheSettings.parseSize("V", "1048576"));
    for (String bad : new String[] {"", "G", "-1", "0", "5X", "1.5G", "99999999999T"}) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  CacheSettings.fromEnvironment(
                      Map.of("HOME", "/h", "OFFLINK_CACHE_MAX", bad.isEmpty() ? " " : bad),
                      Path.of("/w")));
      assertTrue(e.getMessage().startsWith("OFFLINK_CACHE_MAX: expected"), e.getMessage());
    }
  }
}
