package org.offlink.ltowrapper.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.runtime.LinkScope;

/**
 * {@code offlink cache stats|trim|clear} and the links' own eviction over a folder with everything
 * an entry's name can hold that is not an entry (issue 27 items 5 and 9): a symlink loop, a FIFO, a
 * non-empty folder (with a link out), an empty file, a link to a file outside, and a shard that is
 * a link to a folder outside full of {@code *.img} files. Nothing outside is touched.
 */
class CacheFilesTest {
  @TempDir Path dir;
  Path cache;
  Path outside;
  LocalImageCache local;

  @BeforeEach
  void fill() throws Exception {
    cache = dir.resolve("cache");
    outside = Files.createDirectories(dir.resolve("outside"));
    local = new LocalImageCache(cache);
    for (int i = 1; i <= 2; i++) {
      local.write(
          LinkScope.withUmask(022), LocalImageCacheTest.key(i), LocalImageCacheTest.image(1000, i));
    }
    Path shard = local.entryPath(LocalImageCacheTest.key(1)).getParent();
    Path loop = shard.resolve("loop.img");
    Files.createSymbolicLink(loop, loop.getFileName());
    LocalImageCacheTest.mkfifo(shard.resolve("fifo.img"));
    Path folder = Files.createDirectories(shard.resolve("folder.img/deeper"));
    Files.writeString(folder.resolve("junk"), "junk");
    Files.createSymbolicLink(folder.resolve("out"), outside);
    Files.createFile(shard.resolve("zero.img"));
    Files.writeString(outside.resolve("victim.img"), "not the cache's");
    Files.createSymbolicLink(shard.resolve("link.img"), outside.resolve("victim.img"));
    Files.createSymbolicLink(cache.resolve("v1/ab"), outside);
  }

  private Set<String> outsideFiles() throws Exception {
    try (var s = Files.list(outside)) {
      return s.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
    }
  }

  @Test
  void statsListsTheEntriesAndNamesWhatIsBroken() throws Exception {
    CacheFiles.Listing l = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> local.list());
    assertEquals(2, l.entries().size(), l.toString());
    Set<String> broken =
        l.broken().stream().map(p -> cache.relativize(p).toString()).collect(Collectors.toSet());
    assertEquals(
        Set.of(
            "v1/00/loop.img",
            "v1/00/fifo.img",
            "v1/00/folder.img",
            "v1/00/zero.img",
            "v1/00/link.img",
            "v1/ab"),
        broken);
  }

  @Test
  void trimRemovesWhatIsBrokenAndStillEvicts() throws Exception {
    long one = local.entries().get(0).size();
    CacheFiles.Summary s = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> local.trim(one));
    assertEquals(List.of(), s.failures());
    assertEquals(6, s.broken());
    assertEquals(1, s.entries(), "the size limit is still kept");
    assertEquals(1, local.entries().size());
    assertEquals(Set.of("victim.img"), outsideFiles());
    assertFalse(Files.exists(cache.resolve("v1/ab"), LinkOption.NOFOLLOW_LINKS));
  }

  @Test
  void clearRemovesEverythingInsideAndNothingOutside() throws Exception {
    CacheFiles.Summary s = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> local.clear());
    assertEquals(List.of(), s.failures());
    assertEquals(2, s.entries());
    assertEquals(6, s.broken());
    assertEquals(Set.of("victim.img"), outsideFiles());
    assertEquals("not the cache's", Files.readString(outside.resolve("victim.img")));
    try (var left = Files.walk(cache.resolve("v1"))) {
      assertEquals(
          List.of("v1", "v1/00"),
          left.map(p -> cache.relativize(p).toString()).sorted().toList(),
          "only the (empty) folders stay");
    }
  }

  @Test
  void aFolderWithoutV1IsEmptyAndAV1LinkIsBroken() throws Exception {
    assertEquals(0, new LocalImageCache(dir.resolve("none")).list().entries().size());
    Path other = Files.createDirectories(dir.resolve("other"));
    Files.createSymbolicLink(other.resolve("v1"), cache.resolve("v1"));
    CacheFiles.Listing l = new LocalImageCache(other).list();
    assertEquals(List.of(other.resolve("v1")), l.broken());
    new LocalImageCache(other).clear();
    assertEquals(2, local.entries().size(), "the link is removed, not what it points at");
  }
}
