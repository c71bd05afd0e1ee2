package org.offlink.ltowrapper.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.runtime.LinkScope;

/**
 * Who the local cache trusts (issue 27 item 4): folders only the user (or root) can write, entries
 * the user owns and nobody else can write, a team cache only when asked for. What offlink creates
 * gets a mode that keeps others out whatever the umask. Cases that need another owner are made by
 * {@code chown}, so they run as root (as the project's tests do); {@code CacheTrustIT} makes them
 * as a second user with {@code setpriv}.
 */
class CacheFoldersTest {
  private static final OffloadTarget NVPTX = OffloadTarget.NVPTX;
  private static final CacheKey KEY = LocalImageCacheTest.key(1);

  @TempDir Path dir;

  private static int mode(Path p) throws Exception {
    return (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 07777;
  }

  private static void chmod(Path p, int mode) throws Exception {
    Files.setAttribute(p, "unix:mode", mode);
  }

  private static boolean root() throws Exception {
    return CacheTrust.currentUid() == 0;
  }

  /** A cache folder in {@code dir} holding one good entry. */
  private Path cacheWithAnEntry() throws Exception {
    Path cache = dir.resolve("cache");
    new LocalImageCache(cache)
        .write(LinkScope.withUmask(022), KEY, LocalImageCacheTest.image(10, 1));
    return cache;
  }

  private static String untrusted(LocalImageCache cache) {
    return assertThrows(UntrustedCacheException.class, () -> cache.read(KEY, NVPTX)).getMessage();
  }

  @Test
  void whatOfflinkCreatesOnlyTheUserCanReachWhateverTheUmask() throws Exception {
    Path cache = dir.resolve("a/b/cache");
    LocalImageCache c = new LocalImageCache(cache);
    c.write(LinkScope.withUmask(022), KEY, LocalImageCacheTest.image(10, 1));
    Path entry = c.entryPath(KEY);
    assertEquals(0700, mode(dir.resolve("a")), "a missing folder above it too");
    assertEquals(0700, mode(cache));
    assertEquals(0700, mode(cache.resolve("v1")));
    assertEquals(0700, mode(entry.getParent()));
    assertEquals(0600, mode(entry));
    assertTrue(c.read(KEY, NVPTX).isPresent());
  }

  @Test
  void aCacheFolderWritableByOthersIsNotUsedAtAll() throws Exception {
    Path cache = cacheWithAnEntry();
    chmod(cache, 0777);
    assertEquals(
        cache + " is writable by group and others (mode 0777)",
        untrusted(new LocalImageCache(cache)));
    // The sticky bit does not help the cache folder itself: anyone may still create v1/ first.
    chmod(cache, 01777);
    assertTrue(untrusted(new LocalImageCache(cache)).contains("(mode 1777)"));
    chmod(cache, 0770);
    assertTrue(untrusted(new LocalImageCache(cache)).endsWith("writable by its group (mode 0770)"));
    // Neither is a store made: the folder is not used.
    chmod(cache, 0777);
    assertThrows(
        UntrustedCacheException.class,
        () ->
            new LocalImageCache(cache)
                .write(
                    LinkScope.withUmask(022),
                    LocalImageCacheTest.key(2),
                    LocalImageCacheTest.image(10, 2)));
  }

  @Test
  void aShardOrLayoutFolderWritableByOthersIsNotUsed() throws Exception {
    Path cache = cacheWithAnEntry();
    Path shard = new LocalImageCache(cache).entryPath(KEY).getParent();
    chmod(shard, 0757);
    assertEquals(
        shard + " is writable by others (mode 0757)", untrusted(new LocalImageCache(cache)));
    chmod(shard, 0700);
    chmod(cache.resolve("v1"), 0775);
    assertTrue(
        untrusted(new LocalImageCache(cache)).startsWith(cache.resolve("v1") + " is writable"));
  }

  @Test
  void aFolderAboveTheCacheMustNotLetOthersSwapItUnlessItIsSticky() throws Exception {
    Path cache = cacheWithAnEntry();
    chmod(dir, 0777);
    assertEquals(
        dir
            + " is writable by group and others (mode 0777) above the cache folder, without the"
            + " sticky bit",
        untrusted(new LocalImageCache(cache)));
    chmod(dir, 01777); // like /tmp: only the owner may rename the cache folder
    assertTrue(new LocalImageCache(cache).read(KEY, NVPTX).isPresent());
  }

  @Test
  void aLinkNamingTheCacheFolderIsResolvedOnceAndItsTargetChecked() throws Exception {
    Path cache = cacheWithAnEntry();
    Path link = Files.createSymbolicLink(dir.resolve("link"), cache);
    assertTrue(new LocalImageCache(link).read(KEY, NVPTX).isPresent());
    chmod(cache, 0777);
    assertTrue(untrusted(new LocalImageCache(link)).startsWith(cache + " is writable"));
  }

  @Test
  void aCacheFolderOrEntryOwnedBySomeoneElseIsNotTrusted() throws Exception {
    Assumptions.assumeTrue(root(), "giving a file to another uid needs root");
    Path cache = cacheWithAnEntry();
    Path entry = new LocalImageCache(cache).entryPath(KEY);
    Files.setAttribute(entry, "unix:uid", 4242);
    String why =
        assertThrows(CacheEntryException.class, () -> new LocalImageCache(cache).read(KEY, NVPTX))
            .getMessage();
    assertEquals("owned by uid 4242, not by you (uid 0)", why);
    Files.setAttribute(entry, "unix:uid", 0);
    Files.setAttribute(cache, "unix:uid", 4242);
    assertEquals(
        cache + " is owned by uid 4242, not by you (uid 0) or root",
        untrusted(new LocalImageCache(cache)));
    Files.setAttribute(cache, "unix:uid", 0);
    Files.setAttribute(dir, "unix:uid", 4242);
    assertEquals(
        dir + " (above the cache folder) is owned by uid 4242, who could replace the cache folder",
        untrusted(new LocalImageCache(cache)));
  }

  @Test
  void anEntryOthersCanWriteIsNotRead() throws Exception {
    Path cache = cacheWithAnEntry();
    Path entry = new LocalImageCache(cache).entryPath(KEY);
    chmod(entry, 0666);
    String why =
        assertThrows(CacheEntryException.class, () -> new LocalImageCache(cache).read(KEY, NVPTX))
            .getMessage();
    assertEquals("writable by others (mode 0666)", why);
  }

  @Test
  void aTeamCacheIsOptInAndEverythingInItBelongsToTheTeam() throws Exception {
    Assumptions.assumeTrue(root(), "giving a folder to another group needs root (or membership)");
    Path team = Files.createDirectory(dir.resolve("team"));
    Files.setAttribute(team, "unix:gid", 4243);
    chmod(team, 02770);
    // Without the opt-in, a group-writable folder is not used.
    String why =
        assertThrows(
                UntrustedCacheException.class,
                () ->
                    new LocalImageCache(team)
                        .write(LinkScope.withUmask(022), KEY, LocalImageCacheTest.image(10, 1)))
            .getMessage();
    assertTrue(why.endsWith("writable by its group (mode 2770)"), why);

    LocalImageCache shared = new LocalImageCache(team, Optional.of("4243"));
    shared.write(LinkScope.withUmask(022), KEY, LocalImageCacheTest.image(10, 1));
    Path entry = shared.entryPath(KEY);
    assertEquals(4243, Files.getAttribute(entry.getParent(), "unix:gid"));
    assertEquals(02770, mode(entry.getParent()));
    assertEquals(4243, Files.getAttribute(entry, "unix:gid"));
    assertEquals(0640, mode(entry));
    assertTrue(new LocalImageCache(team, Optional.of("4243")).read(KEY, NVPTX).isPresent());

    // Another group's folder, or one others may write, is not the team's.
    assertTrue(
        untrusted(new LocalImageCache(team, Optional.of("4244")))
            .endsWith("belongs to group 4243, not to the team cache's group 4244"));
    chmod(team, 02777);
    assertTrue(
        untrusted(new LocalImageCache(team, Optional.of("4243")))
            .endsWith("is writable by others (mode 2777)"));
  }

  @Test
  void aTeamCacheFolderIsMadeByItsOwnerNotByALink() throws Exception {
    Path missing = dir.resolve("no-team");
    LocalImageCache shared = new LocalImageCache(missing, Optional.of("4243"));
    assertTrue(shared.read(KEY, NVPTX).isEmpty());
    String why =
        assertThrows(
                UntrustedCacheException.class,
                () -> shared.write(LinkScope.withUmask(022), KEY, LocalImageCacheTest.image(10, 1)))
            .getMessage();
    assertTrue(why.contains("install -d -m 2770 -g GROUP " + missing), why);
  }
}
