package org.offlink.server;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Entry point of {@code libexec/offlink/jvm/offlink-server}, which the link client starts as {@code
 * offlink-server --dir FOLDER --hash HASH} in the server folder, with the JVM it resolved and the
 * JVM option variables of its identity (see {@code src/main/c/spawn.c}).
 */
public final class ServerMain {
  /** The exit status when this JVM's identity is not the one the client computed. */
  static final int WRONG_IDENTITY = 4;

  private ServerMain() {}

  /**
   * Checks the arguments against this JVM and installation and serves links with {@code executor}
   * until the server retires; returns the exit status.
   *
   * @param launcher the launcher's path ({@code offlink.launcher}): the installation's root is
   *     three folders above it
   * @param javaHome this JVM's {@code java.home}
   */
  public static int run(
      List<String> args,
      Map<String, String> environment,
      String launcher,
      String javaHome,
      PrintStream err,
      LinkExecutor executor) {
    ServerLog log = new ServerLog(err);
    if (args.size() != 4 || !args.get(0).equals("--dir") || !args.get(2).equals("--hash")) {
      log.line("usage: offlink-server --dir FOLDER --hash HASH (got " + args + ")");
      return 2;
    }
    Path folder = Path.of(args.get(1));
    ServerOptions options;
    try {
      Path root = root(launcher);
      Path java = Path.of(javaHome, "bin", "java").toRealPath();
      options = ServerOptions.of(folder, root, java, environment);
    } catch (IOException e) {
      log.line("not started: " + e.getMessage());
      return 1;
    }
    if (!options.identity().hash().equals(args.get(3))) {
      // The client and this JVM disagree on what this server is: say both, so it can be fixed.
      log.line(
          "not started: identity "
              + options.identity().hash()
              + ", the client expected "
              + args.get(3)
              + "; this server's identity:\n"
              + options.identity().text());
      return WRONG_IDENTITY;
    }
    log.line(
        "identity "
            + options.identity().hash()
            + ", idle limit "
            + options.idle().toSeconds()
            + " s");
    return new LinkServer(options, executor, log).run();
  }

  /** {@code <root>/libexec/offlink/jvm/offlink-server} gives {@code <root>}. */
  static Path root(String launcher) throws IOException {
    String suffix = "/libexec/offlink/jvm/offlink-server";
    if (!launcher.endsWith(suffix)) {
      throw new IOException("the launcher '" + launcher + "' is not <root>" + suffix);
    }
    return Path.of(launcher.substring(0, launcher.length() - suffix.length()));
  }
}
