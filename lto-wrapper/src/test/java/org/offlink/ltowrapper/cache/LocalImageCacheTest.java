package org.offlink.ltowrapper.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.runtime.LinkScope;

/**
 * The local store: the entry format, rename-into-place writes, damage, eviction, and what is at an
 * entry's path when it is not an entry (issue 27 items 5 to 8): a link is never followed, a FIFO
 * never opened, a huge file never read, a folder removed, a checksum-valid file that is not a
 * wrapper object refused.
 */
class LocalImageCacheTest {
  private static final OffloadTarget NVPTX = OffloadTarget.NVPTX;

  @TempDir Path dir;

  static CacheKey key(int n) {
    return new CacheKey(String.format("%064x", n));
  }

  static CachedImage image(int size, int seed) {
    return WrapperImages.nvptx(size, seed);
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

  private static String refusal(byte[] bytes) {
    return assertThrows(CacheEntryException.class, () -> CacheEntryFile.decode(bytes, NVPTX))
        .getMessage();
  }

  @Test
  void anEntryRoundTripsAndAnyDamageIsNamed() throws Exception {
    CachedImage image = image(1000, 7);
    byte[] bytes = encode(image);
    CachedImage back = CacheEntryFile.decode(bytes, NVPTX);
    assertArrayEquals(image.object(), back.object());
    assertEquals(image.counts(), back.counts());

    assertTrue(refusal(Arrays.copyOf(bytes, bytes.length - 10)).contains("torn"));
    byte[] flipped = bytes.clone();
    flipped[500] ^= 1;
    assertTrue(refusal(flipped).contains("checksum"));
    assertTrue(refusal(new byte[3]).contains("OFLKIMG2"));
    assertTrue(
        assertThrows(
                CacheEntryException.class, () -> CacheEntryFile.decode(bytes, OffloadTarget.AMDGCN))
            .getMessage()
            .contains("not a amdgcn-amdhsa wrapper object offlink writes"));
  }

  // Item 8: a checksum that matches says nothing about what the object is.
  @Test
  void aChecksumValidEntryThatIsNotTheWrapperObjectItsKeyPromisesIsRefused() {
    ImageCounts counts = image(100, 1).counts();
    String notElf = refusal(encode(new CachedImage(new byte[4096], counts)));
    assertTrue(notElf.contains("not a nvptx-none wrapper object offlink writes"), notElf);
    String empty = refusal(encode(new CachedImage(new byte[0], counts)));
    assertTrue(empty.contains("not a nvptx-none wrapper object"), empty);
    String wrongCounts =
        refusal(encode(new CachedImage(image(100, 1).object(), new ImageCounts(9, 4))));
    assertTrue(
        wrongCounts.contains("expected the 9 functions and 4 variables the entry names"),
        wrongCounts);
    assertTrue(wrongCounts.contains("registering 3 and 4"), wrongCounts);
  }

  @Test
  void writtenEntriesAreReadBackAndMissesAreEmpty() throws Exception {
    LocalImageCache cache = new LocalImageCache(dir);
    assertTrue(cache.read(key(1), NVPTX).isEmpty());
    assertTrue(cache.write(LinkScope.withUmask(022), key(1), image(10, 1)));
    Path file = cache.entryPath(key(1));
    assertEquals(dir.resolve("v1").resolve("00"), file.getParent());
    CachedImage back = cache.read(key(1), NVPTX).orElseThrow();
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
    cache.read(key(1), NVPTX);
    long entry = Files.size(cache.entryPath(key(1)));
    CacheFiles.Summary removed = cache.trim(2 * entry);
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
                          .read(key(6), NVPTX)
                          .ifPresent(got -> assertArrayEquals(image.object(), got.object()));
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

  // Item 5: root's link created a file where a dangling link at the entry path pointed.
  @Test
  void aLinkAtAnEntryPathIsNeverFollowed() throws Exception {
    LocalImageCache cache = new LocalImageCache(dir);
    cache.write(LinkScope.withUmask(022), key(1), image(10, 1));
    Path file = cache.entryPath(key(2));
    Path elsewhere = dir.resolve("elsewhere.o");
    Files.createSymbolicLink(file, elsewhere);
    assertTrue(cache.read(key(2), NVPTX).isEmpty(), "a dangling link is a miss");
    cache.write(LinkScope.withUmask(022), key(2), image(10, 2));
    assertFalse(Files.exists(elsewhere, LinkOption.NOFOLLOW_LINKS), "nothing written there");
    assertTrue(Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS), "the link was replaced");

    // A link to a good entry is not an entry either: it is removed, its target is not.
    Path good = Files.copy(file, dir.resolve("good.img"));
    Files.delete(file);
    Files.createSymbolicLink(file, good);
    String why =
        assertThrows(CacheEntryException.class, () -> cache.read(key(2), NVPTX)).getMessage();
    assertEquals("expected a regular file, found a symbolic link", why);
    cache.remove(key(2));
    assertFalse(Files.exists(file, LinkOption.NOFOLLOW_LINKS));
    assertTrue(Files.isRegularFile(good));
  }

  // Item 6: a FIFO at the entry path held the link until it was killed.
  @Test
  void aFifoAtAnEntryPathIsRefusedWithoutBeingOpened() throws Exception {
    LocalImageCache cache = new LocalImageCache(dir);
    cache.write(LinkScope.withUmask(022), key(1), image(10, 1));
    Path fifo = cache.entryPath(key(3));
    mkfifo(fifo);
    String why =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10),
            () ->
                assertThrows(CacheEntryException.class, () -> cache.read(key(3), NVPTX))
                    .getMessage());
    assertEquals("expected a regular file, found a FIFO", why);
    cache.remove(key(3));
    assertFalse(Files.exists(fifo, LinkOption.NOFOLLOW_LINKS));
  }

  // Item 7: a 3 GiB entry, or a link to /dev/zero, ended every link with "out of memory".
  @Test
  void aHugeEntryIsRefusedUnreadAndALinkToDevZeroIsALink() throws Exception {
    LocalImageCache cache = new LocalImageCache(dir);
    cache.write(LinkScope.withUmask(022), key(1), image(10, 1));
    Path huge = cache.entryPath(key(4));
    try (RandomAccessFile f = new RandomAccessFile(huge.toFile(), "rw")) {
      f.setLength(3L << 30); // sparse: no disk, same size
    }
    String why =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10),
            () ->
                assertThrows(CacheEntryException.class, () -> cache.read(key(4), NVPTX))
                    .getMessage());
    assertEquals((3L << 30) + " bytes, over the 256 MiB limit of an entry", why);
    cache.remove(key(4));
    assertFalse(Files.exists(huge));

    Path zero = cache.entryPath(key(5));
    Files.createSymbolicLink(zero, Path.of("/dev/zero"));
    assertThrows(CacheEntryException.class, () -> cache.read(key(5), NVPTX));
    cache.remove(key(5));
    assertFalse(Files.exists(zero, LinkOption.NOFOLLOW_LINKS));
    assertTrue(Files.exists(Path.of("/dev/zero")));
  }

  // Item 9: a folder at the entry path warned on every link and was never cleaned.
  @Test
  void aFolderAtAnEntryPathIsRemovedAndReplaced() throws Exception {
    LocalImageCache cache = new LocalImageCache(dir);
    cache.write(LinkScope.withUmask(022), key(1), image(10, 1));
    Path folder = Files.createDirectory(cache.entryPath(key(6)));
    Path outside = Files.writeString(dir.resolve("outside.txt"), "keep me");
    Files.createSymbolicLink(folder.resolve("link"), outside);
    Files.writeString(folder.resolve("junk"), "junk");
    String why =
        assertThrows(CacheEntryException.class, () -> cache.read(key(6), NVPTX)).getMessage();
    assertEquals("expected a regular file, found a directory", why);
    cache.remove(key(6));
    assertFalse(Files.exists(folder, LinkOption.NOFOLLOW_LINKS));
    assertEquals("keep me", Files.readString(outside));

    Files.createDirectories(folder.resolve("again"));
    cache.write(LinkScope.withUmask(022), key(6), image(10, 6));
    assertArrayEquals(image(10, 6).object(), cache.read(key(6), NVPTX).orElseThrow().object());
  }

  static void mkfifo(Path path) throws Exception {
    Process p = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assertEquals(0, p.waitFor());
  }
}
