package org.offlink.ltowrapper.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.ltowrapper.io.ObjectScan;
import org.offlink.ltowrapper.io.ScannedInputs;
import org.offlink.runtime.LinkScope;

/** One link's cache: local first, then remote; damage and unwritable folders never fail a link. */
class ImageCacheTest {
  @TempDir Path dir;
  final List<String> warnings = new ArrayList<>();
  final FakeRemote remote = new FakeRemote();
  final List<ImageCache> created = new ArrayList<>();

  /** A remote cache in a map. */
  static final class FakeRemote implements RemoteImageCache {
    final Map<CacheKey, CachedImage> entries = new HashMap<>();
    int gets;

    @Override
    public Optional<CachedImage> get(CacheKey key) {
      gets++;
      return Optional.ofNullable(entries.get(key));
    }

    @Override
    public void put(CacheKey key, CachedImage image) {
      entries.put(key, image);
    }
  }

  ImageCache cache(Path folder, Optional<RemoteImageCache> remote) {
    return cache(folder, remote, 1L << 30);
  }

  ImageCache cache(Path folder, Optional<RemoteImageCache> remote, long maxBytes) {
    ImageKeys keys =
        new ImageKeys(Map.of(), folder, folder, new ScannedInputs(in -> ObjectScan.NOT_AN_OBJECT));
    ImageCache cache =
        new ImageCache(
            LinkScope.withUmask(022),
            new CacheSettings(folder, maxBytes),
            keys,
            remote,
            warnings::add,
            Optional.empty());
    created.add(cache);
    return cache;
  }

  /** A remote hit trims on a thread of its own, which must be done before the folder goes. */
  @AfterEach
  void awaitBackgroundWork() throws InterruptedException {
    for (ImageCache c : created) {
      c.awaitBackground();
    }
  }

  /** Three 100-byte images stored, used one after the other (key 11 least recently). */
  private long storeThreeOldEntries(ImageCache c) throws Exception {
    long now = System.currentTimeMillis();
    for (int i = 0; i < 3; i++) {
      CacheKey key = LocalImageCacheTest.key(11 + i);
      c.store(key, LocalImageCacheTest.image(100, i));
      Files.setLastModifiedTime(
          new LocalImageCache(dir).entryPath(key), FileTime.fromMillis(now - 600_000 + i * 1000));
    }
    return Files.size(new LocalImageCache(dir).entryPath(LocalImageCacheTest.key(11)));
  }

  /** The folder was last trimmed two minutes ago. */
  private void trimmedLongAgo() throws Exception {
    Path marker = dir.resolve("last-trim");
    Files.deleteIfExists(marker);
    Files.setLastModifiedTime(
        Files.createFile(marker), FileTime.fromMillis(System.currentTimeMillis() - 120_000));
  }

  @Test
  void gettingReadyToStoreTrimsTheFolderAtMostOnceAMinute() throws Exception {
    long entry = storeThreeOldEntries(cache(dir, Optional.empty()));
    ImageCache c = cache(dir, Optional.empty(), 2 * entry);
    c.prepareStore(LocalImageCacheTest.key(19));
    assertEquals(3, new LocalImageCache(dir).entries().size(), "no marker: the clock starts");
    assertTrue(Files.exists(dir.resolve("last-trim")));
    trimmedLongAgo();
    c.prepareStore(LocalImageCacheTest.key(20));
    assertFalse(c.find(LocalImageCacheTest.key(11)).isPresent(), "the least recently used");
    assertTrue(c.find(LocalImageCacheTest.key(13)).isPresent());
    assertTrue(Files.exists(dir.resolve("last-trim")));
    c.store(LocalImageCacheTest.key(20), LocalImageCacheTest.image(100, 9));
    c.prepareStore(LocalImageCacheTest.key(21));
    assertEquals(3, new LocalImageCache(dir).entries().size(), "trimmed a moment ago: not yet");
    assertEquals(List.of(), warnings);
  }

  @Test
  void aRemoteHitTrimsTheFolderInTheBackground() throws Exception {
    long entry = storeThreeOldEntries(cache(dir, Optional.empty()));
    trimmedLongAgo();
    CacheKey key = LocalImageCacheTest.key(30);
    remote.entries.put(key, LocalImageCacheTest.image(100, 30));
    ImageCache c = cache(dir, Optional.of(remote), 2 * entry);
    assertEquals(ImageCache.Source.REMOTE, c.find(key).orElseThrow().source());
    c.awaitBackground();
    List<LocalImageCache.Entry> left = new LocalImageCache(dir).entries();
    assertEquals(2, left.size(), left.toString());
    assertEquals(new LocalImageCache(dir).entryPath(key), left.get(1).file(), "the newest stays");
  }

  @Test
  void aStoredImageIsALocalHitAndIsUploaded() {
    ImageCache c = cache(dir, Optional.of(remote));
    CacheKey key = LocalImageCacheTest.key(1);
    assertTrue(c.find(key).isEmpty());
    c.store(key, LocalImageCacheTest.image(100, 1));
    ImageCache.Hit hit = c.find(key).orElseThrow();
    assertEquals(ImageCache.Source.LOCAL, hit.source());
    assertArrayEquals(LocalImageCacheTest.image(100, 1).object(), hit.image().object());
    assertTrue(remote.entries.containsKey(key));
    assertEquals(List.of(), warnings);
  }

  @Test
  void aRemoteHitIsStoredLocallyForTheNextLink() {
    CacheKey key = LocalImageCacheTest.key(2);
    remote.entries.put(key, LocalImageCacheTest.image(50, 2));
    assertEquals(
        ImageCache.Source.REMOTE, cache(dir, Optional.of(remote)).find(key).orElseThrow().source());
    int asked = remote.gets;
    assertEquals(
        ImageCache.Source.LOCAL, cache(dir, Optional.of(remote)).find(key).orElseThrow().source());
    assertEquals(asked, remote.gets, "a local hit does not ask the server");
  }

  @Test
  void aDamagedEntryIsAMissWithOneWarningAndIsRemoved() throws Exception {
    ImageCache c = cache(dir, Optional.empty());
    CacheKey key = LocalImageCacheTest.key(3);
    c.store(key, LocalImageCacheTest.image(100, 3));
    Path file = new LocalImageCache(dir).entryPath(key);
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    assertTrue(c.find(key).isEmpty());
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains(file.toString()), warnings.get(0));
    assertTrue(warnings.get(0).contains("torn"), warnings.get(0));
    assertFalse(Files.exists(file));
  }

  @Test
  void anUnwritableFolderCostsOneWarningAndTheLinkGoesOn() throws Exception {
    Assumptions.assumeFalse(
        "root".equals(System.getProperty("user.name")),
        "root writes into any folder: this case cannot be made as root");
    Path locked = Files.createDirectory(dir.resolve("locked"));
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-xr-xr-x"));
    ImageCache c = cache(locked, Optional.empty());
    c.store(LocalImageCacheTest.key(4), LocalImageCacheTest.image(10, 4));
    c.store(LocalImageCacheTest.key(5), LocalImageCacheTest.image(10, 5));
    assertEquals(1, warnings.size(), warnings.toString());
  }

  @Test
  void aFolderThatIsAFileCostsOneWarningAndTheLinkGoesOn() throws Exception {
    Path file = Files.writeString(dir.resolve("not-a-folder"), "x");
    ImageCache c = cache(file, Optional.empty());
    c.store(LocalImageCacheTest.key(4), LocalImageCacheTest.image(10, 4));
    c.store(LocalImageCacheTest.key(5), LocalImageCacheTest.image(10, 5));
    assertTrue(c.find(LocalImageCacheTest.key(4)).isEmpty());
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains("going on without the cache"), warnings.get(0));
  }
}
