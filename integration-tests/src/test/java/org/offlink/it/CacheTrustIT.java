package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.it.CacheLinks.Account;
import org.offlink.it.CacheLinks.Link;
import org.offlink.it.CacheLinks.Result;

/**
 * Issue 27, the local cache, tried as the issue's attacker tried it, on real GCC 12 saxpy links
 * (nvptx) whose programs run under the registration spy: items 4 (poisoning: the {@code ld -r}
 * entry of the issue, an empty object, and another user, uid 4242 through {@code setpriv}, in each
 * of the issue's folder set-ups), 5 (links followed), 6 (a FIFO), 7 (huge entries), 8 (a
 * checksum-valid entry that is not a wrapper object) and 9 (broken names and maintenance), and the
 * opt-in team cache with two users. Every link must succeed and register what stock GCC's does;
 * every untrusted folder or entry costs exactly one warning. Needs root (setpriv, chown, mkfifo).
 * {@code -Dcache.dist=DIR} runs it against another tree: against 4d51cf0's, every test fails.
 */
class CacheTrustIT {
  private static final int OTHER = 4242;
  private static final String POISONED = "POISONED";

  @TempDir static Path scratch;
  private static CacheLinks links;

  /** An entry file for saxpy's key whose object also runs a constructor printing POISONED. */
  private static Path poisoned;

  /**
   * Where saxpy's entry lies in a cache folder ({@code v1/<shard>/<key>.img}): every user's key.
   */
  private static Path entryName;

  @BeforeAll
  static void setUp() throws Exception {
    links = CacheLinks.create(scratch);
    Path dir = links.folder("poison", 0);
    Path cache = dir.resolve("c");
    Link first = links.link(dir, Account.ROOT, CacheLinks.cacheEnv(cache));
    links.assertLinkedAsStock(first, "the first link");
    entryName = cache.relativize(CacheLinks.onlyEntry(cache));
    poisoned = poison(dir, CacheLinks.onlyEntry(cache));
  }

  /**
   * The issue's attack, step by step as written there: the object out of the entry, {@code ld -r}
   * with a constructor that prints, written back with a good CRC. Returns a copy of the poisoned
   * entry others may read.
   */
  private static Path poison(Path dir, Path entry) throws Exception {
    String e = entry.toString();
    step(
        dir,
        "python3",
        "-c",
        "d=open('" + e + "','rb').read();open('legit.o','wb').write(d[32:-4])");
    Files.writeString(
        dir.resolve("ev.c"),
        "#include <stdio.h>\n__attribute__((constructor)) static void f(void){puts(\"POISONED\");}");
    step(dir, "gcc", "-fPIC", "-c", "ev.c");
    step(dir, "ld", "-r", "legit.o", "ev.o", "-o", "x.o");
    writeEntry(dir, e, "open('x.o','rb').read()", 1, 0);
    Path copy = dir.resolve("poisoned.img");
    Files.copy(entry, copy);
    Files.setAttribute(copy, "unix:mode", 0644);
    return copy;
  }

  /**
   * Writes the entry file {@code entry} holding the object the Python expression {@code object}
   * gives, with counts {@code functions}/{@code variables} and a good CRC, as the issue's script
   * does.
   */
  private static void writeEntry(
      Path dir, String entry, String object, int functions, int variables) throws Exception {
    step(
        dir,
        "python3",
        "-c",
        "import struct,zlib;o="
            + object
            + ";b=b'OFLKIMG2'+struct.pack('>qqq',"
            + functions
            + ","
            + variables
            + ",len(o))+o;open('"
            + entry
            + "','wb').write(b+struct.pack('>I',zlib.crc32(b)))");
  }

  private static Result step(Path dir, String... argv) throws Exception {
    Result r = CacheLinks.run(dir, Map.of(), List.of(argv));
    assertEquals(0, r.status(), String.join(" ", argv) + "\n" + r.output());
    return r;
  }

  private static void assertNotPoisoned(Link l, String what) {
    assertFalse(String.join("\n", l.registered()).contains(POISONED), what + ": " + l.registered());
    links.assertLinkedAsStock(l, what);
  }

  private static void assertOneWarning(Link l, String... parts) {
    List<String> w = l.warnings();
    assertEquals(1, w.size(), l.result().output());
    for (String part : parts) {
      assertTrue(w.get(0).contains(part), w.get(0));
    }
  }

  // Item 4, exactly as the issue writes it: the entry rebuilt as `ld -r legit.o ev.o`.
  @Test
  void theIssuesLdRPoisonedEntryIsRefusedRemovedAndRebuilt() throws Exception {
    Path dir = links.folder("ld-r", 0);
    Path cache = dir.resolve("c");
    links.link(dir, Account.ROOT, CacheLinks.cacheEnv(cache));
    Path entry = CacheLinks.onlyEntry(cache);
    poison(dir, entry);
    Link l = links.link(dir, Account.ROOT, CacheLinks.cacheEnv(cache));
    assertNotPoisoned(l, "a link over the poisoned entry");
    assertOneWarning(l, entry.toString(), "not a nvptx-none wrapper object", "removed");
    assertNotEquals(
        Files.size(poisoned), Files.size(entry), "the entry was rebuilt, not kept poisoned");
    Link again = links.link(dir, Account.ROOT, CacheLinks.cacheEnv(cache));
    assertNotPoisoned(again, "the next link");
    assertEquals(List.of(), again.warnings());
  }

  // Item 4: "An entry holding an empty object links with no device image and no warning."
  @Test
  void anEntryHoldingAnEmptyObjectIsRefused() throws Exception {
    Path dir = links.folder("empty", 0);
    Path cache = dir.resolve("c");
    links.link(dir, Account.ROOT, CacheLinks.cacheEnv(cache));
    Path entry = CacheLinks.onlyEntry(cache);
    Files.writeString(dir.resolve("empty.c"), "");
    step(dir, "gcc", "-c", "empty.c");
    String e = entry.toString();
    writeEntry(dir, e, "open('empty.o','rb').read()", 1, 0);
    Link l = links.link(dir, Account.ROOT, CacheLinks.cacheEnv(cache));
    links.assertLinkedAsStock(l, "a link over an empty object");
    assertOneWarning(l, e, "not a nvptx-none wrapper object");
  }

  /**
   * uid 4242, who can compute saxpy's key by running the same link, puts the poisoned entry at its
   * path in {@code cache} (making the folders it needs, as that user); then root links with the
   * same folder.
   */
  private static Link otherUserPlantsThenRootLinks(Path cache) throws Exception {
    Path theirs = links.folder("their-" + cache.getParent().getFileName(), OTHER);
    Path entry = cache.resolve(entryName);
    Account other = Account.user(OTHER);
    Result folders =
        links.as(other, theirs, Map.of(), List.of("mkdir", "-p", entry.getParent().toString()));
    assertEquals(0, folders.status(), "uid 4242 may make folders there: " + folders.output());
    Result planted =
        links.as(other, theirs, Map.of(), List.of("cp", poisoned.toString(), entry.toString()));
    assertEquals(0, planted.status(), "uid 4242 may write there: " + planted.output());
    Path ours = links.folder("root-" + cache.getParent().getFileName(), 0);
    return links.link(ours, Account.ROOT, CacheLinks.cacheEnv(cache));
  }

  // Item 4: the folder was created first by uid 4242 inside a 1777 parent.
  @Test
  void aFolderAnotherUserCreatedFirstInsideA1777ParentIsNotUsed() throws Exception {
    Path parent = Files.createDirectories(scratch.resolve("shared-tmp"));
    Files.setAttribute(parent, "unix:mode", 01777);
    Path cache = parent.resolve("offlink-cache");
    Link l = otherUserPlantsThenRootLinks(cache);
    assertNotPoisoned(l, "root's link");
    assertOneWarning(l, cache + " is owned by uid 4242", "the cache is off");
  }

  // Item 4: a 0777 folder.
  @Test
  void a0777FolderIsNotUsed() throws Exception {
    Path cache = Files.createDirectories(scratch.resolve("mode-777/c"));
    Files.setAttribute(cache, "unix:mode", 0777);
    Link l = otherUserPlantsThenRootLinks(cache);
    assertNotPoisoned(l, "root's link");
    assertOneWarning(l, cache + " is writable by group and others (mode 0777)", "cache is off");
  }

  // Item 4: a 1777 folder not yet used.
  @Test
  void a1777FolderNotYetUsedIsNotUsed() throws Exception {
    Path cache = Files.createDirectories(scratch.resolve("mode-1777/c"));
    Files.setAttribute(cache, "unix:mode", 01777);
    Link l = otherUserPlantsThenRootLinks(cache);
    assertNotPoisoned(l, "root's link");
    assertOneWarning(l, cache + " is writable by group and others (mode 1777)");
  }

  /**
   * Root links first under {@code umask} (the folder is made by that link), then {@code attacker}
   * tries to put the poisoned entry in place, then root links again.
   */
  private static void rootsCacheUnderUmaskResists(String umask, Account attacker, String name)
      throws Exception {
    Path dir = links.folder(name, 0);
    Path cache = Files.createDirectories(scratch.resolve(name + "-parent")).resolve("c");
    CacheLinks.open(cache.getParent());
    Link first = links.link(dir, Account.ROOT.withUmask(umask), CacheLinks.cacheEnv(cache));
    links.assertLinkedAsStock(first, "the first link under umask " + umask);
    Path entry = CacheLinks.onlyEntry(cache);
    Path theirs = links.folder("attacker-" + name, attacker.uid());
    Result copied =
        links.as(attacker, theirs, Map.of(), List.of("cp", poisoned.toString(), entry.toString()));
    assertNotEquals(0, copied.status(), "the attacker wrote the entry: " + copied.output());
    Link l = links.link(dir, Account.ROOT.withUmask(umask), CacheLinks.cacheEnv(cache));
    assertNotPoisoned(l, "root's second link");
    assertEquals(List.of(), l.warnings());
  }

  // Item 4: the folder was made under umask 000.
  @Test
  void underUmask000AnotherUserCannotWriteAnEntry() throws Exception {
    rootsCacheUnderUmaskResists("000", Account.user(OTHER), "umask-000");
  }

  // Item 4: under umask 002, group members could write entries.
  @Test
  void underUmask002AGroupMemberCannotWriteAnEntry() throws Exception {
    rootsCacheUnderUmaskResists("002", Account.user(OTHER, 0), "umask-002");
  }

  // Item 4: a deliberately shared cache is opt-in, and works for two users of its group.
  @Test
  void aTeamCacheIsSharedByTwoMembersOnlyWhenAskedFor() throws Exception {
    int team = 4243;
    Path cache = Files.createDirectories(scratch.resolve("team/cache"));
    CacheLinks.open(cache.getParent());
    Files.setAttribute(cache, "unix:gid", team);
    Files.setAttribute(cache, "unix:mode", 02770);
    Map<String, String> shared =
        CacheLinks.cacheEnv(cache, "OFFLINK_CACHE_SHARED_GROUP", String.valueOf(team));
    Account alice = Account.user(4244, team);
    Account bob = Account.user(4245, team);

    Link a = links.link(links.folder("alice", alice.uid()), alice, shared);
    links.assertLinkedAsStock(a, "alice's link");
    assertEquals(List.of(), a.warnings());
    Path entry = CacheLinks.onlyEntry(cache);
    assertEquals(team, Files.getAttribute(entry, "unix:gid"));
    assertEquals(0640, (Integer) Files.getAttribute(entry, "unix:mode") & 07777);

    Path bobs = links.folder("bob", bob.uid());
    Link b = links.link(bobs, bob, shared, "-v");
    links.assertLinkedAsStock(b, "bob's link");
    assertTrue(b.result().output().contains("nvptx-none: hit (local)"), b.result().output());

    // Without the opt-in the same folder is group-writable: not used, one warning.
    Link notAsked = links.link(bobs, bob, CacheLinks.cacheEnv(cache), "-v");
    links.assertLinkedAsStock(notAsked, "bob's link without the opt-in");
    assertOneWarning(notAsked, cache + " is writable by its group (mode 2770)", "SHARED_GROUP");
    assertFalse(notAsked.result().output().contains("hit (local)"));
  }

  /** A folder with a cache made by root's first link; the entry's path. */
  private static Path cacheWithEntry(Path dir) throws Exception {
    Link first = links.link(dir, Account.ROOT, CacheLinks.cacheEnv(dir.resolve("c")));
    links.assertLinkedAsStock(first, "the first link");
    return CacheLinks.onlyEntry(dir.resolve("c"));
  }

  private static Link relink(Path dir) throws Exception {
    return links.link(dir, Account.ROOT, CacheLinks.cacheEnv(dir.resolve("c")));
  }

  // Item 5: a dangling symlink at an entry path made root's link write where it pointed.
  @Test
  void aDanglingLinkAtTheEntryPathIsNotFollowed() throws Exception {
    Path dir = links.folder("dangling", 0);
    Path entry = cacheWithEntry(dir);
    Files.delete(entry);
    Path target = dir.resolve("planted.o");
    Files.createSymbolicLink(entry, target);
    links.assertLinkedAsStock(relink(dir), "a link over a dangling link");
    assertFalse(Files.exists(target, LinkOption.NOFOLLOW_LINKS), "written where the link pointed");
    assertTrue(Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS), "the link was replaced");
  }

  // Item 5: `offlink cache clear` followed a shard symlink and deleted *.img files outside.
  @Test
  void cacheClearDoesNotFollowAShardLink() throws Exception {
    Path dir = links.folder("clear-link", 0);
    cacheWithEntry(dir);
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Path victim = Files.writeString(outside.resolve("victim.img"), "not the cache's");
    Files.createSymbolicLink(dir.resolve("c/v1/ee"), outside);
    Result clear = offlinkCache(dir, "clear");
    assertEquals(0, clear.status(), clear.output());
    assertEquals("not the cache's", Files.readString(victim));
    assertEquals(List.of(), CacheLinks.entries(dir.resolve("c")));
  }

  private static Result offlinkCache(Path dir, String... args) throws Exception {
    List<String> argv =
        new java.util.ArrayList<>(
            List.of(CacheLinks.DIST.resolve("bin/offlink").toString(), "cache"));
    argv.addAll(List.of(args));
    return links.as(Account.ROOT, dir, CacheLinks.cacheEnv(dir.resolve("c")), argv);
  }

  // Item 6: a FIFO at an entry path hung the link (stopped at 60 s).
  @Test
  void aFifoAtTheEntryPathDoesNotHangTheLink() throws Exception {
    Path dir = links.folder("fifo", 0);
    Path entry = cacheWithEntry(dir);
    Files.delete(entry);
    step(dir, "mkfifo", entry.toString());
    long start = System.nanoTime();
    Link l = relink(dir);
    long seconds = (System.nanoTime() - start) / 1_000_000_000L;
    links.assertLinkedAsStock(l, "a link over a FIFO");
    assertTrue(seconds < 60, "took " + seconds + " s");
    assertOneWarning(l, entry.toString(), "found a FIFO", "removed");
    assertTrue(Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS), "replaced by the new entry");
  }

  // Item 7: a 3 GiB entry, or a symlink to /dev/zero, failed every later link.
  @Test
  void aHugeEntryOrALinkToDevZeroIsAMissAndIsRemoved() throws Exception {
    Path dir = links.folder("huge", 0);
    Path entry = cacheWithEntry(dir);
    try (RandomAccessFile f = new RandomAccessFile(entry.toFile(), "rw")) {
      f.setLength(3L << 30); // sparse
    }
    Link l = relink(dir);
    links.assertLinkedAsStock(l, "a link over a 3 GiB entry");
    assertOneWarning(l, "over the 256 MiB limit of an entry", "removed");
    assertTrue(Files.size(entry) < 10 << 20, "the huge entry was replaced");
    links.assertLinkedAsStock(relink(dir), "the next link");

    Files.delete(entry);
    Files.createSymbolicLink(entry, Path.of("/dev/zero"));
    Link zero = relink(dir);
    links.assertLinkedAsStock(zero, "a link over a link to /dev/zero");
    assertOneWarning(zero, "found a symbolic link", "removed");
    assertTrue(Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS));
  }

  // Item 8: a CRC-valid entry that is not a wrapper object (wrong counts, non-ELF bytes).
  @Test
  void aChecksumValidEntryThatIsNotAWrapperObjectIsAMissAndIsRemoved() throws Exception {
    Path dir = links.folder("crc-valid", 0);
    Path entry = cacheWithEntry(dir);
    String e = entry.toString();
    // The real object with other counts in the header; then bytes that are not ELF at all.
    String realObject = "open('" + e + "','rb').read()[32:-4]";
    String notElf = "b'not an object, just bytes'*100";
    for (String object : List.of(realObject, notElf)) {
      writeEntry(
          dir, e, object, object.equals(realObject) ? 5 : 1, object.equals(realObject) ? 7 : 0);
      Link l = relink(dir);
      links.assertLinkedAsStock(l, "a link over a CRC-valid foreign entry");
      assertOneWarning(l, e, "removed, building the image");
      Link next = relink(dir);
      links.assertLinkedAsStock(next, "the next link");
      assertEquals(List.of(), next.warnings(), "the entry was replaced, not kept");
    }
  }

  // Item 9: a directory at an entry path warned on every link and was never cleaned.
  @Test
  void aFolderAtTheEntryPathIsCleanedOnce() throws Exception {
    Path dir = links.folder("folder-entry", 0);
    Path entry = cacheWithEntry(dir);
    Files.delete(entry);
    Files.createDirectories(entry.resolve("inside"));
    Files.writeString(entry.resolve("inside/file"), "x");
    Link l = relink(dir);
    links.assertLinkedAsStock(l, "a link over a folder");
    assertOneWarning(l, "found a directory");
    Link next = relink(dir);
    links.assertLinkedAsStock(next, "the next link");
    assertEquals(List.of(), next.warnings());
    assertTrue(Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS));
  }

  // Item 9: a symlink-loop *.img broke stats, trim and clear and stopped the links' eviction; a
  // folder named *.img broke trim and clear; clear kept zero-byte entries.
  @Test
  void brokenNamesBreakNeitherMaintenanceNorTheLinksOwnEviction() throws Exception {
    Path dir = links.folder("broken-names", 0);
    Path entry = cacheWithEntry(dir);
    Path shard = entry.getParent();
    Path loop = shard.resolve("loop.img");
    Files.createSymbolicLink(loop, loop.getFileName());
    step(dir, "mkfifo", shard.resolve("fifo.img").toString());
    Files.createDirectories(shard.resolve("folder.img/inside"));
    Files.writeString(shard.resolve("folder.img/inside/file"), "x");
    // Old entries beyond a 2 MiB limit: five of 600 kB (any bytes: eviction does not read them).
    long old = System.currentTimeMillis() - 3_600_000;
    for (int i = 0; i < 5; i++) {
      Path f = shard.resolve(String.format("%064x.img", i + 1));
      Files.write(f, new byte[600_000]);
      Files.setLastModifiedTime(f, FileTime.fromMillis(old + i));
    }
    Files.setLastModifiedTime(dir.resolve("c/last-trim"), FileTime.fromMillis(old));
    // A miss (another option, another key) trims while it builds (the trim is due), then stores.
    Link miss =
        links.link(
            dir,
            Account.ROOT,
            CacheLinks.cacheEnv(dir.resolve("c"), "OFFLINK_CACHE_MAX", "2M"),
            "-foffload-options=-O1");
    assertEquals(0, miss.result().status(), miss.result().output());
    long total = 0;
    long newest = 0;
    for (Path p : CacheLinks.entries(dir.resolve("c"))) {
      if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
        total += Files.size(p);
        if (Files.getLastModifiedTime(p).toMillis() > old + 60_000) {
          newest = Math.max(newest, Files.size(p));
        }
      }
    }
    // The trim ran before the store: without the entry just stored, the folder is within limits.
    assertTrue(
        total - newest <= 2 << 20,
        "kept " + total + " bytes (" + newest + " just stored) under OFFLINK_CACHE_MAX=2M");
    assertFalse(Files.exists(loop, LinkOption.NOFOLLOW_LINKS), "the loop was removed");

    Files.createSymbolicLink(loop, loop.getFileName());
    Files.createFile(shard.resolve(String.format("%064x.img", 99)));
    for (String command : List.of("stats", "trim", "clear")) {
      Result r = offlinkCache(dir, command);
      assertEquals(0, r.status(), command + ": " + r.output());
    }
    assertEquals(List.of(), CacheLinks.entries(dir.resolve("c")), "clear keeps nothing");
  }
}
