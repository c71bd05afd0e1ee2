package org.offlink.cli.server;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.offlink.runtime.LinkContext;
import org.offlink.server.ServerFolder;
import org.offlink.server.ServerQuery;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code offlink server status|stop}: the user's link servers, in the folder the link client uses
 * ({@code $OFFLINK_SERVER_DIR}, else {@code $XDG_RUNTIME_DIR/offlink}, else {@code
 * /tmp/offlink-<uid>}). {@code stop} stops this installation's servers (every one with {@code
 * --all}): each stops taking links, finishes those it runs, and exits.
 */
@Command(
    name = "server",
    mixinStandardHelpOptions = true,
    description = {
      "Show or stop your resident link servers (the JVMs that run links for lto-wrapper and",
      "mkoffload, started by the first link and ended after $OFFLINK_SERVER_IDLE seconds",
      "without one, default 600). OFFLINK_FLAGS=--no-server links without them."
    },
    subcommands = {ServerCommand.Status.class, ServerCommand.Stop.class})
public final class ServerCommand implements Callable<Integer> {
  private static final long STOP_WAIT_SECONDS = 60;

  private final LinkContext context;
  private final Optional<Path> installation;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** {@code installation}: this tree's root, when known (stop stops its servers). */
  public ServerCommand(LinkContext context, Optional<Path> installation) {
    this.context = context;
    this.installation = installation;
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return 0;
  }

  Path folder() throws IOException {
    return ServerFolder.choose(context.environment(), ServerFolder.currentUid());
  }

  boolean ours(Map<String, String> status) {
    return installation.map(p -> p.toString().equals(status.get("root"))).orElse(false);
  }

  /** One server, as {@code status} prints it. */
  static String describe(Path socket, Map<String, String> s, boolean ours) {
    String hash = socket.getFileName().toString().replace(".sock", "");
    return "server "
        + s.get("pid")
        + (ours ? " (this installation)" : "")
        + ": "
        + s.get("state")
        + ", "
        + s.get("active_links")
        + " link(s) running, "
        + s.get("links")
        + " run ("
        + s.get("failed_links")
        + " failed), up "
        + s.get("uptime_s")
        + " s, idle "
        + s.get("idle_s")
        + " of "
        + ("0".equals(s.get("idle_limit_s")) ? "unlimited" : s.get("idle_limit_s") + " s")
        + "\n  java "
        + s.get("java_version")
        + " ("
        + s.get("java")
        + "), heap "
        + s.get("heap_used_mib")
        + " of "
        + s.get("heap_max_mib")
        + " MiB, resident "
        + Long.parseLong(s.getOrDefault("rss_kib", "0")) / 1024
        + " MiB\n  installation "
        + s.get("root")
        + "\n  socket "
        + socket
        + ", log "
        + socket.resolveSibling(hash + ".log");
  }

  /** {@code offlink server status}. */
  @Command(name = "status", mixinStandardHelpOptions = true, description = "List your servers.")
  static final class Status implements Callable<Integer> {
    @CommandLine.ParentCommand ServerCommand parent;

    @Override
    public Integer call() throws IOException {
      PrintWriter out = parent.spec.commandLine().getOut();
      Path folder = parent.folder();
      int live = 0;
      for (Path socket : ServerQuery.sockets(folder)) {
        Optional<Map<String, String>> s = ServerQuery.status(socket);
        if (s.isEmpty()) {
          out.println("stale socket " + socket + " (its server is gone)");
          continue;
        }
        out.println(describe(socket, s.get(), parent.ours(s.get())));
        live++;
      }
      if (live == 0) {
        out.println("no link server is running (folder " + folder + "); the next link starts one");
      }
      return 0;
    }
  }

  /** {@code offlink server stop [--all]}. */
  @Command(
      name = "stop",
      mixinStandardHelpOptions = true,
      description = {
        "Stop this installation's servers: each takes no more links, finishes those it runs",
        "and exits. The next link starts a new one."
      })
  static final class Stop implements Callable<Integer> {
    @CommandLine.ParentCommand ServerCommand parent;

    @Option(names = "--all", description = "Stop every server of yours, of any installation.")
    boolean all;

    @Override
    public Integer call() throws IOException, InterruptedException {
      PrintWriter out = parent.spec.commandLine().getOut();
      int stopped = 0;
      for (Path socket : ServerQuery.sockets(parent.folder())) {
        Optional<Map<String, String>> s = ServerQuery.status(socket);
        if (s.isEmpty() || !(all || parent.ours(s.get()))) {
          continue;
        }
        ServerQuery.stop(socket);
        String pid = s.get().get("pid");
        out.println(
            "stopping server " + pid + " (" + s.get().get("active_links") + " link(s) running)");
        out.flush();
        Optional<ProcessHandle> p = ProcessHandle.of(Long.parseLong(pid));
        if (p.isPresent()) {
          try {
            p.get().onExit().get(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
          } catch (java.util.concurrent.ExecutionException
              | java.util.concurrent.TimeoutException e) {
            out.println("server " + pid + " is still finishing its links");
          }
        }
        stopped++;
      }
      if (stopped == 0) {
        out.println("no server to stop");
      }
      return 0;
    }
  }
}
