package org.offlink.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The server process's resident memory and open descriptors, from {@code /proc}, for status. */
final class ProcessFacts {
  private ProcessFacts() {}

  /** {@code rss_kib=} and {@code open_fds=} lines (-1 where {@code /proc} does not say). */
  static String describe() {
    return "rss_kib=" + rssKib() + "\nopen_fds=" + openFds() + "\n";
  }

  static long rssKib() {
    try {
      for (String line :
          new String(Files.readAllBytes(Path.of("/proc/self/status")), StandardCharsets.ISO_8859_1)
              .split("\n")) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.substring(6).trim().split("\\s+")[0]);
        }
      }
    } catch (IOException | RuntimeException e) {
      // no /proc
    }
    return -1;
  }

  static long openFds() {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.count() - 1; // the listing's own descriptor
    } catch (IOException e) {
      return -1;
    }
  }
}
