package org.offlink.server;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.offlink.runtime.CommandStartup;
import org.offlink.runtime.JvmProperties;
import org.offlink.runtime.LastResort;
import org.offlink.runtime.LinkContext;

/**
 * Entry point of {@code libexec/offlink/jvm/offlink-server}, which the link client starts as {@code
 * offlink-server --dir FOLDER --hash HASH --first-link} in the server folder, with the JVM it
 * resolved and the JVM option variables of its identity, and its own connection as the server's
 * stdin (see {@code src/main/c/spawn.c}). Without {@code --first-link} stdin is not read.
 */
public final class ServerMain {
  /** The exit status when this JVM's identity is not the one the client computed. */
  static final int WRONG_IDENTITY = 4;

  /** The argument that says stdin is the connection of the client that started the server. */
  static final String FIRST_LINK = "--first-link";

  private ServerMain() {}

  /** Serves links until the server retires, then exits. */
  public static void main(String[] args) {
    // A server that runs its starter's link at once sets up its socket while that link runs: no
    // warm-up thread then, to compete with the link's start for the cores.
    if (!List.of(args).contains(FIRST_LINK)) {
      SocketWarmUp.start();
    }
    LinkContext context = CommandStartup.start();
    String launcher = System.getProperty("offlink.launcher", "");
    String mode = "server (pid " + ProcessHandle.current().pid() + ")";
    int status =
        LastResort.run(
            "offlink-server: fatal error: ",
            context.err(),
            true,
            () ->
                run(
                    List.of(args),
                    context.environment(),
                    context.workingDirectory(),
                    launcher,
                    JvmProperties.javaHome(),
                    context.err(),
                    root -> new ToolExecutor(root, mode)));
    CommandStartup.exit(context, status);
  }

  /**
   * Checks the arguments against this JVM and installation and serves links with the executor
   * {@code executor} makes for the installation's root until the server retires; returns the exit
   * status.
   *
   * @param workingDirectory the process's folder (the client starts a server in its folder)
   * @param launcher the launcher's path ({@code offlink.launcher}): the installation's root is
   *     three folders above it
   * @param javaHome this JVM's {@code java.home}
   */
  public static int run(
      List<String> args,
      Map<String, String> environment,
      Path workingDirectory,
      String launcher,
      String javaHome,
      PrintStream err,
      Function<Path, LinkExecutor> executor) {
    ServerLog log = new ServerLog(err);
    boolean firstLink = args.size() == 5 && args.get(4).equals(FIRST_LINK);
    if (args.size() != (firstLink ? 5 : 4)
        || !args.get(0).equals("--dir")
        || !args.get(2).equals("--hash")) {
      log.line(
          "usage: offlink-server --dir FOLDER --hash HASH [" + FIRST_LINK + "] (got " + args + ")");
      return 2;
    }
    Path folder = Path.of(args.get(1));
    ServerOptions options;
    Path root;
    try {
      root = root(launcher);
      Path java = Path.of(javaHome, "bin", "java").toRealPath();
      options = ServerOptions.of(folder, root, java, environment, folder.equals(workingDirectory));
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
    LinkServer server = new LinkServer(options, executor.apply(root), log);
    if (firstLink) {
      server.serveStarter(new StarterConnection());
    }
    // Logged after the starter's link has its thread: the first line loads the JDK's date
    // formatting, a few milliseconds that link need not wait for.
    log.line(
        "identity "
            + options.identity().hash()
            + ", idle limit "
            + options.idle().toSeconds()
            + " s");
    return server.run();
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
