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
    byte[] object = RemoteCacheFixtures.object(5000);
    BazelHttpCache writer = client("cache", Map.of(), false);
    writer.put(key, new CachedImage(object, new ImageCounts(7, 3)));

    BazelHttpCache reader = client("cache", Map.of(), false);
    CachedImage got = reader.get(key).orElseThrow();
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
    assertEquals(Optional.empty(), client.get(RemoteCacheFixtures.key("never stored")));
    assertEquals(List.of(), warnings);
    assertEquals(new RemoteCacheStats(0, 1, 0, 0, false), client.stats());
  }

  @Test
  void aServerErrorIsAMissAndOneWarningButTheServerIsStillAsked() throws Exception {
    BazelHttpCache client = client("fail", Map.of(), false);
    CacheKey key = RemoteCacheFixtures.key("server error");
    assertEquals(Optional.empty(), client.get(key));
    client.put(key, new CachedImage(new byte[] {1}, new ImageCounts(1, 0)));
    assertEquals(Optional.empty(), client.get(key));

    assertEquals(1, warnings.size(), warnings.toString());
    assertEquals(
        "remote cache "
            + nginx.base("fail")
            + ": GET ac/"
            + key.hex()
            + ": HTTP 500; building locally",
        warnings.get(0));
    assertFalse(client.stats().unreachable());
    long failRequests = nginx.accessLog().stream().filter(l -> l.contains(" /fail/")).count();
    assertEquals(3, failRequests, nginx.accessLog().toString());
  }

  @Test
  void aCorruptedBlobIsAMissAndAWarningNamingTheDigestMismatch() throws Exception {
    CacheKey key = RemoteCacheFixtures.key("corrupted");
    byte[] object = RemoteCacheFixtures.object(300);
    client("cache", Map.of(), false).put(key, new CachedImage(object, new ImageCounts(2, 2)));
    // The same length, one byte changed: only the hash can tell.
    Path blob = nginx.file("cache", BlobDigest.of(object).casPath());
    byte[] corrupted = Files.readAllBytes(blob);
    corrupted[100] ^= 1;
    Files.write(blob, corrupted);

    assertEquals(Optional.empty(), client("cache", Map.of(), false).get(key));
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(
        warnings.get(0).contains("cas/" + BlobDigest.of(object).hash() + ": digest mismatch"),
        warnings.get(0));
    assertTrue(warnings.get(0).endsWith("; building locally"), warnings.get(0));
  }

  @Test
  void aReadOnlyClientReadsButNeverPuts() throws Exception {
    CacheKey stored = RemoteCacheFixtures.key("read-only hit");
    client("cache", Map.of(), false)
        .put(stored, new CachedImage(new byte[] {4, 2}, new ImageCounts(1, 1)));

    BazelHttpCache readOnly = client("cache", Map.of(), true);
    CacheKey fresh = RemoteCacheFixtures.key("read-only put");
    byte[] object = {9, 8, 7};
    readOnly.put(fresh, new CachedImage(object, new ImageCounts(0, 0)));
    assertTrue(readOnly.get(stored).isPresent());
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
    client.put(
        RemoteCacheFixtures.key("wrong password"),
        new CachedImage(new byte[] {1}, new ImageCounts(0, 0)));

    assertEquals(1, warnings.size(), warnings.toString());
    String warning = warnings.get(0);
    assertTrue(warning.contains("HTTP 401"), warning);
    String basic =
        Base64.getEncoder()
            .encodeToString((NginxWebDav.USER + ":" + wrong).getBytes(StandardCharsets.UTF_8));
    assertFalse(warning.contains(wrong) || warning.contains(basic), warning);
  }

  private void assertRoundTripAsUser(Map<String, String> env, String what) throws Exception {
    CacheKey key = RemoteCacheFixtures.key("credentials from " + what);
    byte[] object = RemoteCacheFixtures.object(64);
    client("auth", env, false).put(key, new CachedImage(object, new ImageCounts(1, 0)));
    assertArrayEquals(object, client("auth", env, false).get(key).orElseThrow().object());
    assertEquals(List.of(), warnings);
    String acLine = "GET /auth/ac/" + key.hex() + " 200 " + NginxWebDav.USER;
    assertTrue(nginx.accessLog().contains(acLine), nginx.accessLog().toString());
    // Without credentials the same location refuses.
    assertEquals(Optional.empty(), client("auth", Map.of(), false).get(key));
    assertTrue(warnings.get(0).contains("HTTP 401"), warnings.toString());
  }

  private BazelHttpCache client(String location, Map<String, String> env, boolean readOnly) {
    return RemoteCacheFixtures.client(nginx.base(location), env, readOnly, warnings::add);
  }
}
