package org.offlink.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.offlink.bridge.OfflinkFlags;
import org.offlink.bridge.doctor.DoctorCheck;

/**
 * {@code offlink doctor}'s line on the link server: whether links will go through one, and if one
 * runs for this installation, how it is doing.
 */
public final class ServerDoctor {
  /** The area the line is filed under. */
  public static final String AREA = "link server";

  private ServerDoctor() {}

  /** The finding for {@code environment}; {@code installation}: this tree's root, if known. */
  public static DoctorCheck check(Map<String, String> environment, Optional<Path> installation) {
    boolean off;
    try {
      off = !OfflinkFlags.fromEnvironment(environment).server();
    } catch (IllegalArgumentException e) {
      off = false; // the bad word is the link's problem, and doctor reports the flags elsewhere
    }
    if (off) {
      return DoctorCheck.info(
          AREA, "off (OFFLINK_FLAGS has --no-server): every link starts a JVM of its own");
    }
    Path folder;
    try {
      int uid = ServerFolder.currentUid();
      folder = ServerFolder.choose(environment, uid);
      if (Files.exists(folder, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        ServerFolder.checkPrivate(folder, uid);
      }
    } catch (IOException e) {
      return new DoctorCheck(
          AREA,
          DoctorCheck.Status.WARNING,
          e.getMessage() + ": every link starts a JVM of its own",
          "");
    }
    List<String> running = new ArrayList<>();
    try {
      for (Path socket : ServerQuery.sockets(folder)) {
        Optional<Map<String, String>> s = ServerQuery.status(socket);
        if (s.isPresent()
            && installation.map(p -> p.toString().equals(s.get().get("root"))).orElse(true)) {
          running.add(
              "pid "
                  + s.get().get("pid")
                  + " on Java "
                  + s.get().get("java_version")
                  + ", "
                  + s.get().get("links")
                  + " links run");
        }
      }
    } catch (IOException e) {
      return new DoctorCheck(AREA, DoctorCheck.Status.WARNING, folder + ": " + e.getMessage(), "");
    }
    return DoctorCheck.ok(
        AREA,
        (running.isEmpty()
                ? "none running; the next link starts one"
                : "running (" + String.join("; ", running) + ")")
            + " in "
            + folder);
  }
}
