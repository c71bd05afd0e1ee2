package org.offlink.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.offlink.server.protocol.LinkRequest;

/**
 * A {@link LinkExecutor} for the client and server tests: {@code argv[1]} says what the "link"
 * does, so that each test sees one protocol feature at work. It records what happened to it in
 * {@link #events} (in-process servers) and in its stderr (servers the client started).
 */
final class FakeExecutor implements LinkExecutor {
  final Queue<String> events = new ConcurrentLinkedQueue<>();
  private final Path execHelper;

  /** {@code execHelper}: offlink-exec, for the links that start a child. */
  FakeExecutor(Path execHelper) {
    this.execHelper = execHelper;
  }

  @Override
  public int run(LinkRequest r, LinkStreams s, LinkControl c) {
    List<String> a = r.argv();
    String command = a.size() > 1 ? a.get(1) : "";
    List<String> rest = a.subList(Math.min(2, a.size()), a.size());
    try {
      switch (command) {
        case "echo":
          s.out().println(String.join(" ", rest));
          s.err().println("to stderr");
          return 0;
        case "exit":
          return Integer.parseInt(rest.get(0));
        case "env":
          s.out().println(r.environment().getOrDefault(rest.get(0), "<unset>"));
          return 0;
        case "facts":
          s.out().println("cwd=" + r.workingDirectory());
          s.out().println("umask=" + Integer.toOctalString(r.umask()));
          s.out().println("tool=" + r.tool().path());
          s.out().println("argv0=" + a.get(0));
          s.out().println("pid=" + r.clientPid());
          s.out().println("server=" + ProcessHandle.current().pid());
          return 0;
        case "stdin":
          s.in().transferTo(s.out());
          return 0;
        case "big":
          byte[] block = new byte[Integer.parseInt(rest.get(0))];
          for (int i = 0; i < block.length; i++) {
            block[i] = (byte) ('a' + i % 26);
          }
          s.out().write(block);
          s.out().flush();
          return 0;
        case "wait":
          return waitForCancel(r, s, c);
        case "slowcancel":
          // A cancel that takes a while, as a link's whose children take time to end.
          c.onCancel(
              () -> {
                try {
                  Thread.sleep(Long.parseLong(rest.get(0)));
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                events.add("slow cancel done");
              });
          return waitForCancel(r, s, c);
        case "child":
          startChild(r, s, c, List.of("/bin/sleep", "sleep", "600"));
          return waitForCancel(r, s, c);
        case "hupchild":
          // As GCC's driver and collect2: makes a file, removes it on SIGHUP (not on SIGTERM).
          // No stderr: sh says "Hangup" of its ended sleep, and with the server dead, that write
          // to the server's pipe would end it by SIGPIPE before its trap runs.
          startChild(
              r,
              s,
              c,
              List.of(
                  "/bin/sh",
                  "sh",
                  "-c",
                  "exec 2>/dev/null; trap 'rm -f \"$0\"; exit 129' HUP; : > \"$0\";"
                      + " while :; do sleep 0.01; done",
                  rest.get(0)));
          return waitForCancel(r, s, c);
        case "temp":
          Path file = Path.of(rest.get(0));
          Files.writeString(file, "temporary");
          c.witness().fileTracked(file);
          s.out().println("made " + file);
          return waitForCancel(r, s, c);
        default:
          s.err().println("fake: unknown command " + command);
          return 2;
      }
    } catch (IOException e) {
      s.err().println("fake: " + e);
      return 1;
    }
  }

  private int waitForCancel(LinkRequest r, LinkStreams s, LinkControl c) {
    c.onCancel(() -> events.add("cancelled " + r.argv().get(1)));
    s.out().println("waiting");
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (!c.cancelled() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        return 1;
      }
    }
    s.out().println("after the cancel: must not reach the client");
    return 1;
  }

  /** A child in a process group of its own, through offlink-exec, ended on cancel. */
  private void startChild(LinkRequest r, LinkStreams s, LinkControl c, List<String> program)
      throws IOException {
    List<String> argv =
        new ArrayList<>(List.of(execHelper.toString(), Integer.toOctalString(r.umask())));
    argv.addAll(program);
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    c.witness().childStarted(p.pid());
    c.onCancel(
        () -> {
          p.destroy();
          events.add("ended child " + p.pid());
        });
    s.out().println("child " + p.pid());
  }
}
