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
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.ltowrapper.io.ObjectScan;
import org.offlink.ltowrapper.io.ScannedInputs;
import org.offlink.runtime.LinkScope;

/** One link's cache: local first, then remote; damage and unwritable folders never fail a link. */
class ImageCacheTest {
  private static final OffloadTarget NVPTX = OffloadTarget.NVPTX;

  @TempDir Path dir;
  final List<String> warnings = new ArrayList<>();
  final FakeRemote remote = new FakeRemote();
  final List<ImageCache> created = new ArrayList<>();

  /** A remote cache in a map. */
  static final class FakeRemote implements RemoteImageCache {
    final Map<CacheKey, CachedImage> entries = new HashMap<>();
    int gets;

    @Override
    public Optional<CachedImage> get(CacheKey key, EntryCheck check) {
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
        new ImageKeys(
            Map.of(),
            org.offlink.bridge.OfflinkFlags.NONE,
            Optional.empty(),
            folder,
            folder,
            new ScannedInputs(in -> ObjectScan.NOT_AN_OBJECT));
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
      QuietCaches.await(c);
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
    assertFalse(c.find(NVPTX, LocalImageCacheTest.key(11)).isPresent(), "the least recently used");
    assertTrue(c.find(NVPTX, LocalImageCacheTest.key(13)).isPresent());
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
    assertEquals(ImageCache.Source.REMOTE, c.find(NVPTX, key).orElseThrow().source());
    QuietCaches.await(c);
    List<CacheFiles.Entry> left = new LocalImageCache(dir).entries();
    assertEquals(2, left.size(), left.toString());
    assertEquals(new LocalImageCache(dir).entryPath(key), left.get(1).file(), "the newest stays");
  }

  @Test
  void aStoredImageIsALocalHitAndIsUploaded() {
    ImageCache c = cache(dir, Optional.of(remote));
    CacheKey key = LocalImageCacheTest.key(1);
    assertTrue(c.find(NVPTX, key).isEmpty());
    c.store(key, LocalImageCacheTest.image(100, 1));
    ImageCache.Hit hit = c.find(NVPTX, key).orElseThrow();
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
        ImageCache.Source.REMOTE,
        cache(dir, Optional.of(remote)).find(NVPTX, key).orElseThrow().source());
    int asked = remote.gets;
    assertEquals(
        ImageCache.Source.LOCAL,
        cache(dir, Optional.of(remote)).find(NVPTX, key).orElseThrow().source());
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
    assertTrue(c.find(NVPTX, key).isEmpty());
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
    assertTrue(c.find(NVPTX, LocalImageCacheTest.key(4)).isEmpty());
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(
        warnings.get(0).contains(file + " is a regular file, not a folder; the cache is off"),
        warnings.get(0));
  }

  @Test
  void aFolderOthersMayWriteCostsOneWarningNamingItAndIsNeitherReadNorWritten() throws Exception {
    ImageCache first = cache(dir, Optional.empty());
    first.store(LocalImageCacheTest.key(40), LocalImageCacheTest.image(10, 40));
    QuietCaches.await(first);
    Files.setAttribute(dir, "unix:mode", 0777);
    ImageCache c = cache(dir, Optional.empty());
    assertTrue(c.find(NVPTX, LocalImageCacheTest.key(40)).isEmpty());
    c.prepareStore(LocalImageCacheTest.key(41));
    c.store(LocalImageCacheTest.key(41), LocalImageCacheTest.image(10, 41));
    assertEquals(1, warnings.size(), warnings.toString());
    assertEquals(
        "offload image cache: "
            + dir
            + " is writable by group and others (mode 0777); the cache is off: use a folder only"
            + " you can write (chmod go-w, or another OFFLINK_CACHE_DIR); a cache shared with a"
            + " group is opt-in (OFFLINK_CACHE_SHARED_GROUP)",
        warnings.get(0));
    assertFalse(Files.exists(new LocalImageCache(dir).entryPath(LocalImageCacheTest.key(41))));
  }

  @Test
  void aForeignEntryIsAMissWithOneWarningAndTheNextStoreReplacesIt() throws Exception {
    ImageCache c = cache(dir, Optional.empty());
    CacheKey key = LocalImageCacheTest.key(42);
    c.store(key, LocalImageCacheTest.image(100, 42));
    Path file = new LocalImageCache(dir).entryPath(key);
    // A checksum-valid entry whose object is not a wrapper object.
    Files.write(
        file,
        LocalImageCacheTest.encode(
            new CachedImage(new byte[64], LocalImageCacheTest.image(100, 42).counts())));
    assertTrue(c.find(NVPTX, key).isEmpty());
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(
        warnings.get(0).startsWith("offload image cache: " + file + ": not a nvptx-none wrapper"),
        warnings.get(0));
    assertTrue(warnings.get(0).endsWith("; removed, building the image"), warnings.get(0));
    assertFalse(Files.exists(file));
    c.store(key, LocalImageCacheTest.image(100, 42));
    assertTrue(c.find(NVPTX, key).isPresent());
  }

  // Item 9: a symlink-loop *.img silently stopped the links' own eviction.
  @Test
  void brokenNamesInTheFolderDoNotStopTheLinksOwnEviction() throws Exception {
    long entry = storeThreeOldEntries(cache(dir, Optional.empty()));
    Path shard = new LocalImageCache(dir).entryPath(LocalImageCacheTest.key(11)).getParent();
    Path loop = shard.resolve("loop.img");
    Files.createSymbolicLink(loop, loop.getFileName());
    Files.createDirectories(shard.resolve("folder.img/inside"));
    trimmedLongAgo();
    ImageCache c = cache(dir, Optional.empty(), entry);
    c.prepareStore(LocalImageCacheTest.key(22));
    assertEquals(1, new LocalImageCache(dir).entries().size(), "trimmed to the limit");
    assertFalse(Files.exists(loop, java.nio.file.LinkOption.NOFOLLOW_LINKS));
    assertEquals(List.of(), warnings);
  }
}
