package org.offlink.runtime;

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
 * given it (see {@link LinkScope#newFileMode}). Without {@code /proc} the common 022 is assumed. A
 * JVM cannot change its umask, so the value is read once, when a link first publishes a new file.
 */
final class Umask {
  private static final int DEFAULT = 022;

  /** Mode 0600 for a file being created (a temporary, or an output before it is published). */
  static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
      PosixFilePermissions.asFileAttribute(permissions(0600));

  /** Mode 0700 for a folder of a link's own (its children's TMPDIR). */
  static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_FOLDER =
      PosixFilePermissions.asFileAttribute(permissions(0700));

  private static volatile int cached = -1;

  private Umask() {}

  /** The process's umask. */
  static int ofProcess() {
    int v = cached;
    if (v < 0) {
      v = read(Path.of("/proc/self/status"));
      cached = v;
    }
    return v;
  }

  /** The {@code Umask:} line of a {@code /proc/<pid>/status} file, or 022. */
  static int read(Path status) {
    // Bytes, not readAllLines: a charset decoder and a line reader are cold code in a fresh JVM.
    byte[] text;
    try {
      text = Files.readAllBytes(status);
    } catch (IOException e) {
      return DEFAULT; // no /proc: the usual default
    }
    byte[] key = "Umask:".getBytes(StandardCharsets.US_ASCII);
    outer:
    for (int i = 0; i + key.length <= text.length; i++) {
      if (i > 0 && text[i - 1] != '\n') {
        continue;
      }
      for (int k = 0; k < key.length; k++) {
        if (text[i + k] != key[k]) {
          continue outer;
        }
      }
      int p = i + key.length;
      while (p < text.length && (text[p] == ' ' || text[p] == '\t')) {
        p++;
      }
      int mode = 0;
      int digits = 0;
      while (p < text.length && text[p] >= '0' && text[p] <= '7') {
        mode = mode * 8 + (text[p++] - '0');
        digits++;
      }
      return digits > 0 ? mode : DEFAULT;
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
