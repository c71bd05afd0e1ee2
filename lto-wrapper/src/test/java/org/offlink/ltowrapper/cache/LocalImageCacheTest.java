package org.offlink.ltowrapper.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.runtime.LinkScope;

/** The local store: the entry format, rename-into-place writes, damage, eviction. */
class LocalImageCacheTest {
  @TempDir Path dir;

  static CacheKey key(int n) {
    return new CacheKey(String.format("%064x", n));
  }

  static CachedImage image(int size, int fill) {
    byte[] object = new byte[size];
    Arrays.fill(object, (byte) fill);
    return new CachedImage(object, new ImageCounts(3, 4));
  }

  static byte[] encode(CachedImage image) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    try {
      CacheEntryFile.writeTo(out, image);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  @Test
  void anEntryRoundTripsAndAnyDamageIsNamed() {
    CachedImage image = image(1000, 7);
    byte[] bytes = encode(image);
    CachedImage back = CacheEntryFile.decode(bytes);
    assertArrayEquals(image.object(), back.object());
    assertEquals(image.counts(), back.counts());

    byte[] torn = Arrays.copyOf(bytes, bytes.length - 10);
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> CacheEntryFile.decode(torn))
            .getMessage()
            .contains("torn"));
    byte[] flipped = bytes.clone();
    flipped[500] ^= 1;
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> CacheEntryFile.decode(flipped))
            .getMessage()
            .contains("checksum"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> CacheEntryFile.decode(new byte[3]))
            .getMessage()
            .contains("OFLKIMG2"));
  }

  @Test
  void writtenEntriesAreReadBackAndMissesAreEmpty() throws Exception {
    LocalImageCache cache = new LocalImageCache(dir);
    assertTrue(cache.read(key(1)).isEmpty());
    cache.write(LinkScope.withUmask(022), key(1), image(10, 1));
    Path file = cache.entryPath(key(1));
    assertEquals(dir.resolve("v1").resolve("00"), file.getParent());
    CachedImage back = CacheEntryFile.decode(cache.read(key(1)).orElseThrow());
    assertArrayEquals(image(10, 1).object(), back.object());
    try (var files = Files.list(file.getParent())) {
      assertEquals(List.of(file), files.toList(), "no temporary file is left beside it");
    }
  }

  @Test
  void trimEvictsTheLeastRecentlyUsedFirst() throws Exception {
    LocalImageCache cache = new LocalImageCache(dir);
    for (int i = 1; i <= 4; i++) {
      cache.write(LinkScope.withUmask(022), key(i), image(1000, i));
      Files.setLastModifiedTime(cache.entryPath(key(i)), FileTime.fromMillis(1_000_000L * i));
    }
    // A hit refreshes the entry: key 1 becomes the most recently used.
    cache.read(key(1));
    long entry = Files.size(cache.entryPath(key(1)));
    LocalImageCache.Summary removed = cache.trim(2 * entry);
    assertEquals(2, removed.entries());
    assertEquals(2 * entry, removed.bytes());
    assertFalse(Files.exists(cache.entryPath(key(2))));
    assertFalse(Files.exists(cache.entryPath(key(3))));
    assertTrue(Files.exists(cache.entryPath(key(1))));
    assertTrue(Files.exists(cache.entryPath(key(4))));
    assertEquals(2, cache.clear().entries());
    assertTrue(cache.entries().isEmpty());
  }

  @Test
  void aCrashedWritersTemporaryIsRemovedByTheNextTrimOnceItIsOld() throws Exception {
    LocalImageCache cache = new LocalImageCache(dir);
    cache.write(LinkScope.withUmask(022), key(5), image(10, 5));
    Path shard = cache.entryPath(key(5)).getParent();
    Path stale = Files.writeString(shard.resolve(".x.img.AbCdEf.tmp"), "half");
    Path fresh = Files.writeString(shard.resolve(".y.img.GhIjKl.tmp"), "being written");
    Files.setLastModifiedTime(stale, FileTime.fromMillis(System.currentTimeMillis() - 7_200_000));
    cache.trim(Long.MAX_VALUE);
    assertFalse(Files.exists(stale));
    assertTrue(Files.exists(fresh), "a writer still at work keeps its file");
  }

  @Test
  void concurrentWritersAndReadersOfOneKeyNeverSeeAPartEntry() throws Exception {
    LocalImageCache cache = new LocalImageCache(dir);
    CachedImage image = image(1 << 20, 9);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> jobs = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        boolean writer = t % 2 == 0;
        jobs.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 20; i++) {
                    if (writer) {
                      cache.write(LinkScope.withUmask(022), key(6), image);
                    } else {
                      cache
                          .read(key(6))
                          .ifPresent(
                              bytes ->
                                  assertArrayEquals(
                                      image.object(), CacheEntryFile.decode(bytes).object()));
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> job : jobs) {
        job.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(1, cache.entries().size());
  }
}
