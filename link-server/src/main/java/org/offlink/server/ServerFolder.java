package org.offlink.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;

/**
 * The folder of a user's link servers, chosen and checked as the C client does ({@code
 * src/main/c/rundir.c}): {@code $OFFLINK_SERVER_DIR} when set, else {@code
 * $XDG_RUNTIME_DIR/offlink} when XDG_RUNTIME_DIR is a private folder of this user, else {@code
 * /tmp/offlink-<uid>}. It must be a folder (not a symlink) of this user with no group or other
 * access: anyone else who could enter it could reach the socket or put their own there.
 *
 * <p>Per server of identity hash {@code H} it holds {@code H.sock} (the socket), {@code H.lock}
 * (held by the server that owns the socket's name), {@code H.start} (held by a client starting a
 * server), {@code H.log} and {@code H.log.old} (the server's output), and {@code H.failed} (a start
 * failed: clients do not try again for a minute).
 */
public final class ServerFolder {
  private ServerFolder() {}

  /** The folder's path for {@code environment} and the user {@code uid}. */
  public static Path choose(Map<String, String> environment, int uid) {
    String explicit = environment.get("OFFLINK_SERVER_DIR");
    if (explicit != null && !explicit.isEmpty()) {
      return Path.of(explicit);
    }
    String xdg = environment.get("XDG_RUNTIME_DIR");
    if (xdg != null && xdg.startsWith("/") && isPrivate(Path.of(xdg), uid)) {
      return Path.of(xdg, "offlink");
    }
    return Path.of("/tmp", "offlink-" + uid);
  }

  /** This process's user id (the owner of {@code /proc/self}). */
  public static int currentUid() throws IOException {
    return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
  }

  /**
   * Checks that {@code dir} is a private folder of {@code uid}.
   *
   * @throws IOException naming what is wrong
   */
  public static void checkPrivate(Path dir, int uid) throws IOException {
    Map<String, Object> a;
    try {
      a = Files.readAttributes(dir, "unix:uid,mode,isDirectory", LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      throw new IOException("cannot examine the server folder " + dir + ": " + e.getMessage(), e);
    }
    if (!(Boolean) a.get("isDirectory")) {
      throw new IOException("the server folder " + dir + " is not a folder (a symlink?)");
    }
    int owner = (Integer) a.get("uid");
    int mode = (Integer) a.get("mode") & 0777;
    if (owner != uid) {
      throw new IOException(
          "the server folder " + dir + " belongs to uid " + owner + ", not to uid " + uid);
    }
    if (mode != 0700) {
      throw new IOException(
          "the server folder " + dir + " has mode " + Integer.toOctalString(mode) + ", not 700");
    }
  }

  /** XDG_RUNTIME_DIR's own test (chg's): a folder of {@code uid} with no group or other access. */
  private static boolean isPrivate(Path dir, int uid) {
    try {
      Map<String, Object> a =
          Files.readAttributes(dir, "unix:uid,mode,isDirectory", LinkOption.NOFOLLOW_LINKS);
      return (Boolean) a.get("isDirectory")
          && (Integer) a.get("uid") == uid
          && ((Integer) a.get("mode") & 077) == 0;
    } catch (IOException e) {
      return false;
    }
  }
}
