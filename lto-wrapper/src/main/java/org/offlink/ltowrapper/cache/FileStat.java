package org.offlink.ltowrapper.cache;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;

/**
 * What {@code lstat} says about one path of the cache: it never follows a symbolic link, so a link
 * is seen as a link, whatever it points at (nothing, a loop, {@code /dev/zero}, a file elsewhere).
 *
 * @param mode {@code st_mode}: the file type bits and the permission bits
 * @param uid the owner
 * @param gid the group
 * @param size the size in bytes
 * @param modifiedMillis the modification time
 */
record FileStat(int mode, int uid, int gid, long size, long modifiedMillis) {
  private static final int S_IFMT = 0170000;
  private static final int S_IFDIR = 0040000;
  private static final int S_IFREG = 0100000;
  private static final int S_IFLNK = 0120000;
  private static final int S_IFIFO = 0010000;
  private static final int S_IFSOCK = 0140000;
  private static final int S_IFCHR = 0020000;
  private static final int S_IFBLK = 0060000;

  /** The set-group-ID bit: files made in a folder with it get the folder's group. */
  static final int SET_GID = 02000;

  /** The sticky bit: in a folder with it, only a file's owner may remove or rename the file. */
  static final int STICKY = 01000;

  /** Whether the group may write. */
  static final int GROUP_WRITE = 0020;

  /** Whether others may write. */
  static final int OTHER_WRITE = 0002;

  /** What is at {@code path}, or null when nothing is (a dangling link is something). */
  static FileStat of(Path path) throws IOException {
    Map<String, Object> a;
    try {
      a =
          Files.readAttributes(
              path, "unix:mode,uid,gid,size,lastModifiedTime", LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
    return new FileStat(
        (Integer) a.get("mode"),
        (Integer) a.get("uid"),
        (Integer) a.get("gid"),
        (Long) a.get("size"),
        ((FileTime) a.get("lastModifiedTime")).toMillis());
  }

  boolean isDirectory() {
    return (mode & S_IFMT) == S_IFDIR;
  }

  boolean isRegularFile() {
    return (mode & S_IFMT) == S_IFREG;
  }

  boolean isSymbolicLink() {
    return (mode & S_IFMT) == S_IFLNK;
  }

  /** The permission bits as {@code ls -l} and {@code chmod} write them, e.g. {@code 0755}. */
  String permissions() {
    String octal = Integer.toOctalString(mode & 07777);
    return "0000".substring(Math.min(4, octal.length())) + octal;
  }

  /** What kind of file this is, as a noun phrase for messages. */
  String kind() {
    return switch (mode & S_IFMT) {
      case S_IFREG -> "a regular file";
      case S_IFDIR -> "a directory";
      case S_IFLNK -> "a symbolic link";
      case S_IFIFO -> "a FIFO";
      case S_IFSOCK -> "a socket";
      case S_IFCHR -> "a character device";
      case S_IFBLK -> "a block device";
      default -> "a file of another kind";
    };
  }
}
