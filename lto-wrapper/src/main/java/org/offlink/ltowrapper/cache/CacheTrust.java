package org.offlink.ltowrapper.cache;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Who may have written what the local cache reads. An entry is code that ends up in the user's
 * program, so the cache trusts only files that nobody else could have put there or changed:
 *
 * <ul>
 *   <li><b>A private cache</b> (the default): the cache folder, {@code v1/} and every shard must be
 *       owned by the user or root and writable by neither group nor others; every entry must be a
 *       regular file owned by the user (or root) and writable by nobody else; every folder above
 *       the cache folder must be owned by the user or root and writable by nobody else, unless it
 *       has the sticky bit ({@code /tmp}), so that nobody can swap the cache folder for their own.
 *   <li><b>A team cache</b> ({@code OFFLINK_CACHE_SHARED_GROUP=GROUP}, opt-in): the members of one
 *       group may write. The cache folder and everything in it must belong to that group and be
 *       writable by no one outside it; the cache folder must exist (set up once by whoever owns it:
 *       {@code install -d -m 2770 -g GROUP DIR}), and what offlink creates in it gets the group and
 *       mode {@code 2770} (entries {@code 0640}). Only a member, root or the owner can create a
 *       file in such a folder, and only a member (or root) can give a file the group, so the group
 *       vouches for the writer.
 * </ul>
 *
 * Anything else is not trusted: the folder is not used at all (one warning saying what to fix), an
 * entry is removed as a miss.
 *
 * @param uid the user's (effective) uid
 * @param sharedGroup the team cache's group, by name or number; empty for a private cache
 */
record CacheTrust(int uid, Optional<String> sharedGroup) {
  /** Root may write anywhere anyway: what it owns is trusted. */
  static final int ROOT = 0;

  /** The variable naming a team cache's group. */
  static final String SHARED_GROUP_VARIABLE = "OFFLINK_CACHE_SHARED_GROUP";

  /** Checks the fields. */
  CacheTrust {
    Objects.requireNonNull(sharedGroup, "sharedGroup");
  }

  /** The trust of this process: its effective uid, and the team group if one is named. */
  static CacheTrust ofThisProcess(Optional<String> sharedGroup) throws IOException {
    return new CacheTrust(currentUid(), sharedGroup);
  }

  /**
   * This process's effective uid: the owner of {@code /proc/self} (one stat; Java has no call for
   * it), else, in a chroot without {@code /proc}, the JDK's {@code UnixSystem} (a native call).
   */
  static int currentUid() throws IOException {
    try {
      return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException | UnsupportedOperationException e) {
      try {
        return (int) new com.sun.security.auth.module.UnixSystem().getUid();
      } catch (RuntimeException | LinkageError again) {
        throw new IOException("cannot tell which user this is (no /proc/self)", e);
      }
    }
  }

  /** Whether this is a team cache. */
  boolean shared() {
    return sharedGroup.isPresent();
  }

  /**
   * What is wrong with {@code dir}, the cache folder or a folder in it, or null when it may hold
   * entries.
   *
   * @param team the team group's gid (a team cache), else -1
   */
  String folderProblem(Path dir, FileStat st, int team) {
    if (!st.isDirectory()) {
      return dir + " is " + st.kind() + ", not a folder";
    }
    if (team < 0) {
      if (!ownedByUserOrRoot(st)) {
        return dir + " is owned by uid " + st.uid() + ", not by you (uid " + uid + ") or root";
      }
      return writableProblem(dir, st, FileStat.GROUP_WRITE | FileStat.OTHER_WRITE);
    }
    if (st.gid() != team) {
      return dir + " belongs to group " + st.gid() + ", not to the team cache's group " + team;
    }
    return writableProblem(dir, st, FileStat.OTHER_WRITE);
  }

  /**
   * What is wrong with {@code dir}, a folder above the cache folder, or null when nobody but the
   * user, root (and with a team cache, the team) can rename or replace what is in it.
   */
  String ancestorProblem(Path dir, FileStat st, int team) {
    boolean teams = team >= 0 && st.gid() == team;
    if (!ownedByUserOrRoot(st) && !teams) {
      return dir
          + " (above the cache folder) is owned by uid "
          + st.uid()
          + ", who could replace the cache folder";
    }
    if ((st.mode() & FileStat.STICKY) != 0) {
      return null; // like /tmp: only a file's owner may rename or remove it
    }
    String writable =
        writableProblem(
            dir, st, teams ? FileStat.OTHER_WRITE : FileStat.GROUP_WRITE | FileStat.OTHER_WRITE);
    return writable == null ? null : writable + " above the cache folder, without the sticky bit";
  }

  /** What is wrong with an entry file, or null when it may be read. */
  String entryProblem(FileStat st, int team) {
    if (!st.isRegularFile()) {
      return "expected a regular file, found " + st.kind();
    }
    if (team < 0 && !ownedByUserOrRoot(st)) {
      return "owned by uid " + st.uid() + ", not by you (uid " + uid + ")";
    }
    if (team >= 0 && st.gid() != team) {
      return "of group " + st.gid() + ", not of the team cache's group " + team;
    }
    int writers = team < 0 ? FileStat.GROUP_WRITE | FileStat.OTHER_WRITE : FileStat.OTHER_WRITE;
    if ((st.mode() & writers) != 0) {
      return "writable by others (mode " + st.permissions() + ")";
    }
    return null;
  }

  /** What the user can do about a folder problem of a team ({@code shared}) or private cache. */
  static String remedy(boolean shared) {
    return shared
        ? "give the folders the group and mode 2770 (chgrp -R GROUP DIR; chmod -R o-w DIR), or"
            + " unset "
            + SHARED_GROUP_VARIABLE
        : "use a folder only you can write (chmod go-w, or another OFFLINK_CACHE_DIR); a cache"
            + " shared with a group is opt-in ("
            + SHARED_GROUP_VARIABLE
            + ")";
  }

  /** The mode of a folder offlink creates. */
  int folderMode() {
    return shared() ? 02770 : 0700;
  }

  /** The mode of an entry offlink writes. */
  int entryMode() {
    return shared() ? 0640 : 0600;
  }

  private boolean ownedByUserOrRoot(FileStat st) {
    return st.uid() == uid || st.uid() == ROOT;
  }

  private static String writableProblem(Path dir, FileStat st, int forbidden) {
    int found = st.mode() & forbidden;
    if (found == 0) {
      return null;
    }
    String who =
        found == (FileStat.GROUP_WRITE | FileStat.OTHER_WRITE)
            ? "group and others"
            : found == FileStat.GROUP_WRITE ? "its group" : "others";
    return dir + " is writable by " + who + " (mode " + st.permissions() + ")";
  }
}
