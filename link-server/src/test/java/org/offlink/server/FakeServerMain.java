package org.offlink.server;

import java.nio.file.Path;
import java.util.List;

/** The server a test tree's {@code jvm/offlink-server} starts: {@link ServerMain} over a fake. */
public final class FakeServerMain {
  private FakeServerMain() {}

  /** As {@link ServerMain}; {@code offlink.exec} names the exec helper. */
  public static void main(String[] args) {
    int status =
        ServerMain.run(
            List.of(args),
            System.getenv(),
            Path.of("").toAbsolutePath(),
            System.getProperty("offlink.launcher", ""),
            System.getProperty("java.home"),
            System.err,
            root -> new FakeExecutor(Path.of(System.getProperty("offlink.exec", "/nonexistent"))));
    System.exit(status);
  }
}
