package org.offlink.ltowrapper.jobs;

import java.util.Optional;

/**
 * A GNU make jobserver as announced in {@code MAKEFLAGS}: either the pipe form {@code
 * --jobserver-auth=R,W} (make 4.2–4.3, inherited descriptors) or the named pipe form {@code
 * --jobserver-auth=fifo:PATH} (make 4.4+, understood by GCC 13+).
 *
 * @param readFd the read descriptor (pipe form), else -1
 * @param writeFd the write descriptor (pipe form), else -1
 * @param fifo the named pipe (fifo form), else empty
 */
public record JobserverAuth(int readFd, int writeFd, Optional<String> fifo) {
  private static final String NEEDLE = "--jobserver-auth=";

  /** The result of looking at {@code MAKEFLAGS}: a jobserver or GCC's reason why there is none. */
  public record Detection(Optional<JobserverAuth> auth, String reason) {}

  /**
   * Parses {@code MAKEFLAGS} (null when unset). The reasons are GCC 12's texts (with quote markup);
   * {@code fdUsable} checks that an inherited descriptor is open.
   */
  public static Detection detect(String makeflags, java.util.function.IntPredicate fdUsable) {
    if (makeflags == null) {
      return none("%<MAKEFLAGS%> environment variable is unset");
    }
    int at = makeflags.lastIndexOf(NEEDLE);
    if (at < 0) {
      return none("%<--jobserver-auth=%> is not present in %<MAKEFLAGS%>");
    }
    String value = makeflags.substring(at + NEEDLE.length()).split("[ \t]", 2)[0];
    if (value.startsWith("fifo:") && value.length() > 5) {
      return new Detection(
          Optional.of(new JobserverAuth(-1, -1, Optional.of(value.substring(5)))), "");
    }
    String[] parts = value.split(",", -1);
    if (parts.length == 2) {
      int r = MergeAtoi.parse(parts[0]);
      int w = MergeAtoi.parse(parts[1]);
      if (r > 0 && w > 0 && fdUsable.test(r) && fdUsable.test(w)) {
        return new Detection(Optional.of(new JobserverAuth(r, w, Optional.empty())), "");
      }
    }
    return none("cannot access %<--jobserver-auth=%> file descriptors");
  }

  private static Detection none(String reason) {
    return new Detection(Optional.empty(), reason);
  }

  /** Decimal parsing that yields -1 for anything but digits. */
  static final class MergeAtoi {
    private MergeAtoi() {}

    static int parse(String s) {
      if (s.isEmpty() || s.length() > 9 || !s.chars().allMatch(Character::isDigit)) {
        return -1;
      }
      return Integer.parseInt(s);
    }
  }
}
