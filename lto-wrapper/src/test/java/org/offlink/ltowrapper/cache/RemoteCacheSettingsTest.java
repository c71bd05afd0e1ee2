package org.offlink.ltowrapper.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RemoteCacheSettingsTest {
  @TempDir Path dir;

  @Test
  void noVariableOrAnEmptyOneIsNoRemoteCache() {
    assertEquals(Optional.empty(), RemoteCacheSettings.fromEnvironment(Map.of(), false));
    assertEquals(
        Optional.empty(),
        RemoteCacheSettings.fromEnvironment(Map.of("OFFLINK_REMOTE_CACHE", ""), false));
  }

  @Test
  void theDefaultsAreTwoSecondsToConnectAndTenPerRequest() {
    RemoteCacheSettings s =
        settings(Map.of("OFFLINK_REMOTE_CACHE", "HTTPS://cache.example:9090/a/b//"));
    assertEquals("https://cache.example:9090/a/b", s.displayUrl());
    assertEquals(Duration.ofSeconds(2), s.connectTimeout());
    assertEquals(Duration.ofSeconds(10), s.requestTimeout());
    assertEquals(Optional.empty(), s.authorization());
    assertTrue(s.readOnly());
  }

  @Test
  void theTimeoutVariableSetsTheRequestLimitAndCapsTheConnectLimit() {
    RemoteCacheSettings s =
        settings(Map.of("OFFLINK_REMOTE_CACHE", "http://h", "OFFLINK_REMOTE_CACHE_TIMEOUT", "1.5"));
    assertEquals(Duration.ofMillis(1500), s.requestTimeout());
    assertEquals(Duration.ofMillis(1500), s.connectTimeout());
    assertEquals("http://h", s.displayUrl());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "cache.example:8080",
        "ftp://cache.example/x",
        "http:///nohost",
        "http://h/p?q=1",
        "http://h/p#f",
        "not a url"
      })
  void aValueThatIsNotAnHttpUrlIsAOneLineErrorNamingTheVariable(String value) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> settings(Map.of("OFFLINK_REMOTE_CACHE", value)));
    assertEquals(
        "OFFLINK_REMOTE_CACHE: expected an http:// or https:// URL (http(s)://host[:port]/prefix), found '"
            + value.replace("?q=1", "?***") // a query may hold a token: never echoed
            + "'",
        e.getMessage());
  }

  @Test
  void aUrlWithCredentialsIsRejectedWithoutEchoingThem() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> settings(Map.of("OFFLINK_REMOTE_CACHE", "https://me:hunter2@cache.example/")));
    assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
    assertTrue(
        e.getMessage().startsWith("OFFLINK_REMOTE_CACHE: expected a URL without credentials"),
        e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-1", "soon", "0.0001"})
  void aTimeoutThatIsNotAPositiveNumberIsAnError(String value) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                settings(
                    Map.of(
                        "OFFLINK_REMOTE_CACHE",
                        "http://h",
                        "OFFLINK_REMOTE_CACHE_TIMEOUT",
                        value)));
    assertEquals(
        "OFFLINK_REMOTE_CACHE_TIMEOUT: expected a positive number of seconds, found '"
            + value
            + "'",
        e.getMessage());
  }

  @Test
  void aCredentialsFileGivesBasicOrBearer() throws Exception {
    assertEquals(Optional.of(basic("u", "p:w")), authorization("\n  u:p:w  \n"));
    assertEquals(Optional.of("Bearer abc.def"), authorization("Bearer abc.def\n"));
  }

  @Test
  void aCredentialsFileInNeitherFormIsAnErrorThatDoesNotShowIt() throws Exception {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> authorization("justapassword\n"));
    assertTrue(
        e.getMessage()
            .startsWith(
                "OFFLINK_REMOTE_CACHE_CREDENTIALS: expected 'user:password' or 'Bearer <token>'"),
        e.getMessage());
    assertFalse(e.getMessage().contains("justapassword"), e.getMessage());
  }

  @Test
  void theCredentialsFileWinsOverNetrcAndNetrcOverHome() throws Exception {
    Path netrc = Files.writeString(dir.resolve("netrc"), "default login n password np\n");
    Files.writeString(dir.resolve(".netrc"), "default login h password hp\n");
    Path file = Files.writeString(dir.resolve("credentials"), "f:fp\n");
    Map<String, String> env =
        new HashMap<>(Map.of("OFFLINK_REMOTE_CACHE", "http://h", "HOME", dir.toString()));
    assertEquals(Optional.of(basic("h", "hp")), settings(env).authorization());
    env.put("NETRC", netrc.toString());
    assertEquals(Optional.of(basic("n", "np")), settings(env).authorization());
    env.put("OFFLINK_REMOTE_CACHE_CREDENTIALS", file.toString());
    assertEquals(Optional.of(basic("f", "fp")), settings(env).authorization());
  }

  @Test
  void anUnreadableCredentialsFileIsAnErrorNamingTheVariable() {
    Map<String, String> env =
        Map.of(
            "OFFLINK_REMOTE_CACHE",
            "http://h",
            "OFFLINK_REMOTE_CACHE_CREDENTIALS",
            dir.resolve("absent").toString());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> settings(env));
    assertTrue(
        e.getMessage().startsWith("OFFLINK_REMOTE_CACHE_CREDENTIALS: cannot read "),
        e.getMessage());
  }

  @Test
  void toStringNeverShowsTheAuthorization() throws Exception {
    Path file = Files.writeString(dir.resolve("credentials"), "Bearer t0ken\n");
    RemoteCacheSettings s =
        settings(
            Map.of(
                "OFFLINK_REMOTE_CACHE",
                "http://h",
                "OFFLINK_REMOTE_CACHE_CREDENTIALS",
                file.toString()));
    assertFalse(s.toString().contains("t0ken"), s.toString());
  }

  private Optional<String> authorization(String content) throws Exception {
    Path file = Files.writeString(dir.resolve("credentials"), content);
    return settings(
            Map.of(
                "OFFLINK_REMOTE_CACHE",
                "http://h",
                "OFFLINK_REMOTE_CACHE_CREDENTIALS",
                file.toString()))
        .authorization();
  }

  private static RemoteCacheSettings settings(Map<String, String> env) {
    return RemoteCacheSettings.fromEnvironment(env, true).orElseThrow();
  }

  private static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }
}
