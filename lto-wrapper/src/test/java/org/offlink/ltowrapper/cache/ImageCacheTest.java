package org.offlink.ltowrapper.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.ltowrapper.io.ObjectScan;
import org.offlink.ltowrapper.io.ScannedInputs;

/** One link's cache: local first, then remote; damage and unwritable folders never fail a link. */
class ImageCacheTest {
  @TempDir Path dir;
  final List<String> warnings = new ArrayList<>();
  final FakeRemote remote = new FakeRemote();

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
    ImageKeys keys =
        new ImageKeys(Map.of(), folder, folder, new ScannedInputs(in -> ObjectScan.NOT_AN_OBJECT));
    return new ImageCache(
        new CacheSettings(folder, 1L << 30), keys, remote, warnings::add, Optional.empty());
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
