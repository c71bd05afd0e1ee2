package org.offlink.streamer.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.Set;

/**
 * This process's umask, read from {@code /proc/self/status} (Linux 4.7+; Java has no call for it),
 * so that a file created 0600 and then published gets the mode {@code open(..., 0666)} would have
 * given it. Without {@code /proc} the common 022 is assumed.
 */
final class Umask {
  private static final int DEFAULT = 022;

  /** Mode 0600 for a file being created (a temporary, or an output before it is published). */
  static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
      PosixFilePermissions.asFileAttribute(permissions(0600));

  private static volatile int cached = -1;

  private Umask() {}

  /** {@code 0666 & ~umask} as permissions. */
  static Set<PosixFilePermission> newFilePermissions() {
    return permissions(0666 & ~value());
  }

  static int value() {
    int v = cached;
    if (v < 0) {
      v = read(Path.of("/proc/self/status"));
      cached = v;
    }
    return v;
  }

  /** The {@code Umask:} line of a {@code /proc/<pid>/status} file, or 022. */
  static int read(Path status) {
    try {
      for (String line : Files.readAllLines(status, StandardCharsets.ISO_8859_1)) {
        if (line.startsWith("Umask:")) {
          return Integer.parseInt(line.substring("Umask:".length()).trim(), 8);
        }
      }
    } catch (IOException | NumberFormatException e) {
      // no /proc: fall through to the usual default
    }
    return DEFAULT;
  }

  /**
   * Octal mode bits (the low nine) as a permission set. A HashSet, not an EnumSet: EnumSet finds
   * the enum's constants by reflection on first use, which costs a short-lived JVM ~2 ms.
   */
  static Set<PosixFilePermission> permissions(int mode) {
    Set<PosixFilePermission> set = new HashSet<>();
    PosixFilePermission[] order = {
      PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
      PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
      PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE,
      PosixFilePermission.OTHERS_EXECUTE
    };
    for (int i = 0; i < 9; i++) {
      if ((mode & (0400 >> i)) != 0) {
        set.add(order[i]);
      }
    }
    return set;
  }
}
