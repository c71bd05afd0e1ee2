package org.offlink.cli.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Whether a recorded tool path of a bundle may be used on this machine: it exists, and it and every
 * folder above it (links resolved) belong to root or to this user and cannot be written by anyone
 * else (a folder writable by others counts when it is sticky, as {@code /tmp} is: nobody else can
 * then rename what is in it). The rule of OpenSSH's {@code StrictModes}: another user cannot have
 * placed a program there for the replay to run.
 */
final class TrustedFolders {
  private static final int GROUP_OR_OTHER_WRITE = 0022;
  private static final int STICKY = 01000;

  private TrustedFolders() {}

  /**
   * Whether {@code path} is trusted, "this user" being the owner of {@code ours} (a folder this
   * process created).
   */
  static boolean ownedByUs(Path path, Path ours) {
    try {
      int me = (Integer) Files.getAttribute(ours, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      Path real = path.toRealPath();
      for (Path p = real; p != null; p = p.getParent()) {
        int uid = (Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        int mode = (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        boolean shared = (mode & GROUP_OR_OTHER_WRITE) != 0;
        boolean stickyFolder = p != real && (mode & STICKY) != 0;
        if ((uid != 0 && uid != me) || (shared && !stickyFolder)) {
          return false;
        }
      }
      return true;
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return false; // missing, unreadable or not a POSIX file system: not a folder to look in
    }
  }
}
