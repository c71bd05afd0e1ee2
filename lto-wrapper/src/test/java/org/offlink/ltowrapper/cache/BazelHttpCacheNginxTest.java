package org.offlink.ltowrapper.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.bridge.tool.OffloadTarget;

/**
 * {@link BazelHttpCache} against a real nginx WebDAV location ({@link NginxWebDav}): what one
 * machine puts another reads back byte for byte, and every way the server can disappoint is a miss
 * with one warning. Skipped, saying why, where no nginx with the DAV module is installed
 * (scripts/setup-nginx.sh installs it; scripts/test.sh runs that).
 */
class BazelHttpCacheNginxTest {
  @TempDir static Path dir;
  private static NginxWebDav nginx;

  private final List<String> warnings = new ArrayList<>();

  @BeforeAll
  static void startNginx() throws Exception {
    nginx = NginxWebDav.startOrSkip(dir.resolve("nginx"));
  }

  @AfterAll
  static void stopNginx() throws Exception {
    if (nginx != null) {
      nginx.close();
    }
  }

  @Test
  void whatOneClientPutsASecondOneReadsBackByteForByte() throws Exception {
    CacheKey key = RemoteCacheFixtures.key("round trip");
    CachedImage image = WrapperImages.nvptx(5000, 1, 7, 3);
    byte[] object = image.object();
    BazelHttpCache writer = client("cache", Map.of(), false);
    writer.put(key, image);

    BazelHttpCache reader = client("cache", Map.of(), false);
    CachedImage got = reader.get(key, OffloadTarget.NVPTX).orElseThrow();
    assertArrayEquals(object, got.object());
    assertEquals(new ImageCounts(7, 3), got.counts());
    assertEquals(List.of(), warnings);
    RemoteCacheStats stats = reader.stats();
    assertEquals(1, stats.hits());
    assertTrue(stats.bytesDownloaded() > object.length, "entry + blobs: " + stats);
    assertEquals(writer.stats().bytesUploaded(), stats.bytesDownloaded());
    assertTrue(nginx.files("cache").contains("ac/" + key.hex()), nginx.files("cache").toString());
  }

  @Test
  void anUnknownKeyIsAMissWithoutAWarning() {
    BazelHttpCache client = client("cache", Map.of(), false);
    assertEquals(
        Optional.empty(), client.get(RemoteCacheFixtures.key("never stored"), OffloadTarget.NVPTX));
    assertEquals(List.of(), warnings);
    assertEquals(new RemoteCacheStats(0, 1, 0, 0, false), client.stats());
  }

  @Test
  void aServerErrorIsAMissAndOneWarningButTheServerIsStillAsked() throws Exception {
    BazelHttpCache client = client("fail", Map.of(), false);
    CacheKey key = RemoteCacheFixtures.key("server error");
    assertEquals(Optional.empty(), client.get(key, OffloadTarget.NVPTX));
    client.put(key, WrapperImages.nvptx(10, 2, 1, 0));
    assertEquals(Optional.empty(), client.get(key, OffloadTarget.NVPTX));

    assertEquals(1, warnings.size(), warnings.toString());
    assertEquals(
        "remote cache "
            + nginx.base("fail")
            + ": GET ac/"
            + key.hex()
            + ": HTTP 500; building locally",
        warnings.get(0));
    assertFalse(client.stats().unreachable());
    List<String> log =
        nginx.accessLogOnce(l -> l.stream().filter(r -> r.contains(" /fail/")).count() >= 3);
    assertEquals(3, log.stream().filter(l -> l.contains(" /fail/")).count(), log.toString());
  }

  @Test
  void aCorruptedBlobIsAMissAndAWarningNamingTheDigestMismatch() throws Exception {
    CacheKey key = RemoteCacheFixtures.key("corrupted");
    byte[] object = WrapperImages.nvptx(300, 3, 2, 2).object();
    client("cache", Map.of(), false).put(key, WrapperImages.nvptx(300, 3, 2, 2));
    // The same length, one byte changed: only the hash can tell.
    Path blob = nginx.file("cache", BlobDigest.of(object).casPath());
    byte[] corrupted = Files.readAllBytes(blob);
    corrupted[100] ^= 1;
    Files.write(blob, corrupted);

    assertEquals(Optional.empty(), client("cache", Map.of(), false).get(key, OffloadTarget.NVPTX));
    assertEquals(1, warnings.size(), warnings.toString());
    String hash = BlobDigest.of(object).hash();
    assertTrue(
        warnings
            .get(0)
            .contains(
                "cas/"
                    + hash
                    + ": digest mismatch: expected "
                    + object.length
                    + " bytes with SHA-256 "
                    + hash
                    + ", found "
                    + object.length
                    + " bytes with SHA-256 "
                    + BlobDigest.of(corrupted).hash()),
        warnings.get(0));
    assertTrue(warnings.get(0).endsWith("; building locally"), warnings.get(0));
  }

  @Test
  void aReadOnlyClientReadsButNeverPuts() throws Exception {
    CacheKey stored = RemoteCacheFixtures.key("read-only hit");
    client("cache", Map.of(), false).put(stored, WrapperImages.nvptx(20, 4, 1, 1));

    BazelHttpCache readOnly = client("cache", Map.of(), true);
    CacheKey fresh = RemoteCacheFixtures.key("read-only put");
    byte[] object = WrapperImages.nvptx(30, 5, 0, 0).object();
    readOnly.put(fresh, WrapperImages.nvptx(30, 5, 0, 0));
    assertTrue(readOnly.get(stored, OffloadTarget.NVPTX).isPresent());
    List<String> puts = nginx.accessLog().stream().filter(l -> l.startsWith("PUT ")).toList();
    assertFalse(puts.isEmpty(), "the writable client's PUTs are logged");
    String objectBlob = BlobDigest.of(object).casPath();
    assertTrue(
        puts.stream().noneMatch(l -> l.contains(fresh.hex()) || l.contains(objectBlob)),
        puts.toString());
    assertFalse(Files.exists(nginx.file("cache", "ac/" + fresh.hex())));
    assertEquals(0, readOnly.stats().bytesUploaded());
    assertEquals(List.of(), warnings);
  }

  @Test
  void basicCredentialsFromACredentialsFileReachTheServer() throws Exception {
    Path file = dir.resolve("credentials");
    Files.writeString(file, NginxWebDav.USER + ":" + NginxWebDav.PASSWORD + "\n");
    assertRoundTripAsUser(Map.of(RemoteCacheCredentials.FILE_VARIABLE, file.toString()), "file");
  }

  @Test
  void basicCredentialsFromNetrcReachTheServer() throws Exception {
    Path netrc = dir.resolve("netrc");
    Files.writeString(
        netrc,
        "machine example.org login other password other\n"
            + "machine 127.0.0.1\n  login "
            + NginxWebDav.USER
            + "\n  password "
            + NginxWebDav.PASSWORD
            + "\n");
    assertRoundTripAsUser(Map.of("NETRC", netrc.toString()), "netrc");
  }

  @Test
  void aRejectedPasswordIsAWarningThatDoesNotShowIt() throws Exception {
    String wrong = "wr0ng-Secret";
    Path file = dir.resolve("wrong-credentials");
    Files.writeString(file, NginxWebDav.USER + ":" + wrong + "\n");
    BazelHttpCache client =
        client("auth", Map.of(RemoteCacheCredentials.FILE_VARIABLE, file.toString()), false);
    client.put(RemoteCacheFixtures.key("wrong password"), WrapperImages.nvptx(10, 6, 0, 0));

    assertEquals(1, warnings.size(), warnings.toString());
    String warning = warnings.get(0);
    assertTrue(warning.contains("HTTP 401"), warning);
    String basic =
        Base64.getEncoder()
            .encodeToString((NginxWebDav.USER + ":" + wrong).getBytes(StandardCharsets.UTF_8));
    assertFalse(warning.contains(wrong) || warning.contains(basic), warning);
  }

  /** Writes {@code bytes} as {@code path} in the server's "cache" location, as a writer could. */
  private static void serverHas(String path, byte[] bytes) throws Exception {
    Path file = nginx.file("cache", path);
    Files.createDirectories(file.getParent());
    Files.write(file, bytes);
  }

  /** An entry under {@code key} naming {@code object} and {@code counts}, put straight on disk. */
  private static void forge(CacheKey key, byte[] object, byte[] counts) throws Exception {
    ActionResultCodec.EntryDigests d =
        new ActionResultCodec.EntryDigests(BlobDigest.of(object), BlobDigest.of(counts));
    serverHas(d.object().casPath(), object);
    serverHas(d.counts().casPath(), counts);
    serverHas("ac/" + key.hex(), ActionResultCodec.write(d, new byte[0]));
  }

  // Item 10: an ac/ entry that points at a huge cas/ blob took the link down.
  @Test
  void anEntryNamingAnOversizedBlobIsAMissWithoutADownload() throws Exception {
    CacheKey key = RemoteCacheFixtures.key("oversized");
    ActionResultCodec.EntryDigests d =
        new ActionResultCodec.EntryDigests(
            new BlobDigest("ab".repeat(32), 10L << 30),
            BlobDigest.of(CountsBlob.write(new ImageCounts(1, 0))));
    serverHas("ac/" + key.hex(), ActionResultCodec.write(d, new byte[0]));
    BazelHttpCache client = client("cache", Map.of(), false);
    assertEquals(Optional.empty(), client.get(key, OffloadTarget.NVPTX));
    assertEquals(
        List.of(
            "remote cache "
                + nginx.base("cache")
                + ": ac/"
                + key.hex()
                + ": names cas/"
                + "ab".repeat(32)
                + " of 10737418240 bytes, over the limit of 268435456; building locally"),
        warnings);
    assertTrue(
        nginx.accessLog().stream().noneMatch(l -> l.contains("/cas/" + "ab".repeat(32))),
        "the blob is not even asked for");
  }

  // Item 4 for the remote cache: digests that match say nothing about what the object is.
  @Test
  void aForgedObjectOrCountsThatDisagreeWithTheObjectAreAMiss() throws Exception {
    CacheKey notElf = RemoteCacheFixtures.key("forged object");
    forge(notElf, new byte[300], CountsBlob.write(new ImageCounts(3, 4)));
    assertEquals(
        Optional.empty(), client("cache", Map.of(), false).get(notElf, OffloadTarget.NVPTX));
    assertTrue(
        warnings.get(0).contains(": not a nvptx-none wrapper object offlink writes: "),
        warnings.get(0));

    warnings.clear();
    CacheKey counts = RemoteCacheFixtures.key("wrong counts");
    CachedImage image = WrapperImages.nvptx(100, 8, 3, 4);
    forge(counts, image.object(), CountsBlob.write(new ImageCounts(3, 5)));
    assertEquals(
        Optional.empty(), client("cache", Map.of(), false).get(counts, OffloadTarget.NVPTX));
    assertTrue(
        warnings
            .get(0)
            .contains(
                "expected the 3 functions and 5 variables the entry names, found an object"
                    + " registering 3 and 4"),
        warnings.get(0));
  }

  @Test
  void authenticatedEntriesAreReadOnlyWhenTheSharedKeySignedThem() throws Exception {
    Path keyFile = dir.resolve("hmac.key");
    Files.writeString(keyFile, "a team secret of 32 characters!!\n");
    Files.setAttribute(keyFile, "unix:mode", 0600);
    Path otherKey = dir.resolve("other.key");
    Files.writeString(otherKey, "somebody else's secret, not ours\n");
    Files.setAttribute(otherKey, "unix:mode", 0600);
    Map<String, String> signed = Map.of(EntrySigner.KEY_FILE_VARIABLE, keyFile.toString());
    CacheKey key = RemoteCacheFixtures.key("signed");
    CachedImage image = WrapperImages.nvptx(200, 9, 2, 1);
    client("cache", signed, false).put(key, image);
    Optional<CachedImage> got = client("cache", signed, false).get(key, OffloadTarget.NVPTX);
    assertTrue(got.isPresent(), warnings.toString());
    assertArrayEquals(image.object(), got.get().object());
    assertTrue(
        client("cache", Map.of(), false).get(key, OffloadTarget.NVPTX).isPresent(),
        "a reader without a key takes it as any entry");
    assertEquals(List.of(), warnings);

    // What the server holds without the key (an unsigned writer, a forger) is refused.
    CacheKey unsigned = RemoteCacheFixtures.key("unsigned");
    client("cache", Map.of(), false).put(unsigned, image);
    assertEquals(
        Optional.empty(), client("cache", signed, false).get(unsigned, OffloadTarget.NVPTX));
    assertTrue(
        warnings
            .get(0)
            .endsWith(
                ": not signed with the key of OFFLINK_REMOTE_CACHE_HMAC_KEY_FILE (written without it,"
                    + " or forged); building locally"),
        warnings.get(0));
    Map<String, String> other = Map.of(EntrySigner.KEY_FILE_VARIABLE, otherKey.toString());
    assertEquals(Optional.empty(), client("cache", other, false).get(key, OffloadTarget.NVPTX));
    assertEquals(2, warnings.size(), warnings.toString());
  }

  @Test
  void aKeyFileOthersCanReadIsRefusedWithOneLine() throws Exception {
    Path keyFile = dir.resolve("open.key");
    Files.writeString(keyFile, "a team secret of 32 characters!!\n");
    Files.setAttribute(keyFile, "unix:mode", 0644);
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () ->
                RemoteCacheSettings.fromEnvironment(
                    Map.of(
                        RemoteCacheSettings.URL_VARIABLE,
                        nginx.base("cache").toString(),
                        EntrySigner.KEY_FILE_VARIABLE,
                        keyFile.toString()),
                    false));
    assertEquals(
        "OFFLINK_REMOTE_CACHE_HMAC_KEY_FILE: "
            + keyFile
            + ": others may read or write it (mode 0644): chmod o-rw",
        e.getMessage());
  }

  // Item 12: a failed upload said "building locally" after the image was built.
  @Test
  void aFailedUploadSaysTheUploadWasSkipped() throws Exception {
    client("fail", Map.of(), false)
        .put(RemoteCacheFixtures.key("upload"), WrapperImages.nvptx(10, 1));
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(
        warnings.get(0).endsWith(": HTTP 500; the image was built, its upload skipped"),
        warnings.get(0));
  }

  private void assertRoundTripAsUser(Map<String, String> env, String what) throws Exception {
    CacheKey key = RemoteCacheFixtures.key("credentials from " + what);
    byte[] object = WrapperImages.nvptx(64, 7, 1, 0).object();
    client("auth", env, false).put(key, WrapperImages.nvptx(64, 7, 1, 0));
    assertArrayEquals(
        object, client("auth", env, false).get(key, OffloadTarget.NVPTX).orElseThrow().object());
    assertEquals(List.of(), warnings);
    String acLine = "GET /auth/ac/" + key.hex() + " 200 " + NginxWebDav.USER;
    List<String> log = nginx.accessLogOnce(l -> l.contains(acLine));
    assertTrue(log.contains(acLine), log.toString());
    // Without credentials the same location refuses.
    assertEquals(Optional.empty(), client("auth", Map.of(), false).get(key, OffloadTarget.NVPTX));
    assertTrue(warnings.get(0).contains("HTTP 401"), warnings.toString());
  }

  private BazelHttpCache client(String location, Map<String, String> env, boolean readOnly) {
    return RemoteCacheFixtures.client(nginx.base(location), env, readOnly, warnings::add);
  }
}
