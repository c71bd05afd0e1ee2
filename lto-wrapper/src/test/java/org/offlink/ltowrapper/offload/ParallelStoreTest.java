package org.offlink.ltowrapper.offload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import org.offlink.bridge.image.ImageCounts;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.ltowrapper.cache.CacheKey;
import org.offlink.ltowrapper.cache.CacheSettings;
import org.offlink.ltowrapper.cache.CachedImage;
import org.offlink.ltowrapper.cache.ImageCache;
import org.offlink.ltowrapper.cache.ImageKeys;
import org.offlink.ltowrapper.cache.QuietCaches;
import org.offlink.ltowrapper.cache.WrapperImages;
import org.offlink.ltowrapper.io.ObjectScan;
import org.offlink.ltowrapper.io.ScannedInputs;
import org.offlink.runtime.LinkScope;

/** A miss's object is stored while mkoffload writes it; by {@code finish} it is in the cache. */
class ParallelStoreTest {
  @TempDir Path dir;
  final List<String> warnings = new ArrayList<>();
  final CacheKey key = new CacheKey("ab".repeat(32));

  final List<ImageCache> created = new ArrayList<>();

  ImageCache cache() {
    ImageKeys keys =
        new ImageKeys(
            Map.of(),
            org.offlink.bridge.OfflinkFlags.NONE,
            Optional.empty(),
            dir,
            dir,
            new ScannedInputs(in -> ObjectScan.NOT_AN_OBJECT));
    ImageCache cache =
        new ImageCache(
            LinkScope.withUmask(022),
            new CacheSettings(dir, 1L << 30),
            keys,
            Optional.empty(),
            warnings::add,
            Optional.empty());
    created.add(cache);
    return cache;
  }

  /** The background jobs run in order: once one handed over last has run, the folder is quiet. */
  @AfterEach
  void awaitBackgroundJobs() throws InterruptedException {
    for (ImageCache cache : created) {
      QuietCaches.await(cache);
    }
  }

  @Test
  void anOfferedObjectIsStoredWhenFinishReturns() {
    ImageCache cache = cache();
    CachedImage image = WrapperImages.nvptx(300_000, 7, 2, 5);
    byte[] object = image.object();
    ParallelStore store = new ParallelStore(cache, key);
    store.programStarting();
    store.programStarting(); // every program of the build says so; one thread
    store.objectReady(object, new ImageCounts(2, 5));
    assertEquals(object.length, store.finish());
    ImageCache.Hit hit = cache.find(OffloadTarget.NVPTX, key).orElseThrow();
    assertArrayEquals(object, hit.image().object());
    assertEquals(new ImageCounts(2, 5), hit.image().counts());
    assertEquals(List.of(), warnings);
  }

  @Test
  void nothingOfferedStoresNothingAndSaysSo() {
    ImageCache cache = cache();
    assertEquals(-1, new ParallelStore(cache, key).finish());
    ParallelStore started = new ParallelStore(cache, key);
    started.programStarting(); // a build whose accel compiler then failed
    assertEquals(-1, started.finish());
    assertTrue(cache.find(OffloadTarget.NVPTX, key).isEmpty());
    assertEquals(List.of(), warnings);
  }

  @Test
  void aSecondOfferIsIgnored() {
    ImageCache cache = cache();
    ParallelStore store = new ParallelStore(cache, key);
    CachedImage first = WrapperImages.nvptx(100, 1, 1, 0);
    store.objectReady(first.object(), first.counts());
    store.objectReady(WrapperImages.nvptx(10, 9, 9, 9).object(), new ImageCounts(9, 9));
    assertEquals(first.object().length, store.finish());
    assertArrayEquals(
        first.object(), cache.find(OffloadTarget.NVPTX, key).orElseThrow().image().object());
  }
}
