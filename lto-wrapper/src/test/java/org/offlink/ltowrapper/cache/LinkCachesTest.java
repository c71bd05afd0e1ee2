package org.offlink.ltowrapper.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.ltowrapper.io.ObjectScan;
import org.offlink.ltowrapper.io.ScannedInputs;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.LinkScope;

/** When a link has an image cache, and what it says when it has none. */
class LinkCachesTest {
  @TempDir Path dir;
  final List<String> warnings = new ArrayList<>();
  final List<String> told = new ArrayList<>();
  final List<String> hitOrMiss = new ArrayList<>();

  final List<ImageCache> caches = new ArrayList<>();

  Optional<ImageCache> forLink(Map<String, String> env) {
    Optional<ImageCache> cache =
        LinkCaches.forLink(
            LinkContext.of(
                env,
                dir,
                java.io.InputStream.nullInputStream(),
                System.out,
                System.err,
                LinkScope.withUmask(022)),
            org.offlink.bridge.OfflinkFlags.fromEnvironment(env),
            org.offlink.bridge.gcc.GccInstallation.fromEnvironment(env, dir),
            CacheRequest.of(org.offlink.bridge.OfflinkFlags.fromEnvironment(env), env, dir),
            targetsOf(env),
            new ScannedInputs(in -> ObjectScan.NOT_AN_OBJECT),
            warnings::add,
            Optional.of(hitOrMiss::add),
            Optional.of(told::add));
    cache.ifPresent(caches::add);
    return cache;
  }

  /** A cache's background thread may still be at work when a test ends. */
  @AfterEach
  void quiet() throws InterruptedException {
    for (ImageCache cache : caches) {
      QuietCaches.await(cache);
    }
  }

  @Test
  void onWithAFolderOffWhenAskedOrWhenNoneCanBeNamed() {
    assertTrue(forLink(Map.of("OFFLINK_CACHE_DIR", dir.toString())).isPresent());
    assertTrue(forLink(Map.of("HOME", dir.toString())).isPresent());
    assertTrue(
        forLink(Map.of("OFFLINK_CACHE_DIR", dir.toString(), "OFFLINK_FLAGS", "--no-cache"))
            .isEmpty());
    assertTrue(forLink(Map.of()).isEmpty());
    assertTrue(told.get(0).contains("no OFFLINK_CACHE_DIR, XDG_CACHE_HOME or HOME"), told.get(0));
    assertEquals(List.of(), warnings);
    assertEquals(List.of(), hitOrMiss, "why the cache is off is for -v only, not -save-temps");
  }

  @Test
  void aReproducerLinkRunsItsAccelSteps() {
    assertTrue(
        forLink(Map.of("OFFLINK_CACHE_DIR", dir.toString(), "OFFLINK_REPRODUCE", "b.tar"))
            .isEmpty());
    assertTrue(told.get(0).contains("OFFLINK_REPRODUCE"), told.toString());
  }

  @Test
  void badSettingsAreOneWarningAndTheLinkGoesOn() {
    assertTrue(
        forLink(Map.of("OFFLINK_CACHE_DIR", dir.toString(), "OFFLINK_CACHE_MAX", "lots"))
            .isEmpty());
    assertTrue(
        forLink(Map.of("OFFLINK_CACHE_DIR", dir.toString(), "OFFLINK_REMOTE_CACHE", "ftp://x"))
            .isPresent(),
        "a bad remote leaves the local cache on");
    assertEquals(2, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).startsWith("OFFLINK_CACHE_MAX: expected"), warnings.get(0));
    assertTrue(warnings.get(1).contains("OFFLINK_REMOTE_CACHE"), warnings.get(1));
  }

  /** What the plan makes of OFFLOAD_TARGET_NAMES. */
  private static List<String> targetsOf(Map<String, String> env) {
    String names = env.getOrDefault("OFFLOAD_TARGET_NAMES", "");
    return names.isEmpty() ? List.of() : List.of(names.split(":", -1));
  }
}
