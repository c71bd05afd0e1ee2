package org.offlink.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.RunnerOptions;
import org.offlink.bridge.process.SystemProcessRunner;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.LinkScope;

/**
 * The one process runner starting a server-run link's children through {@code offlink-exec} (the
 * sanitized build): each gets the client's umask and leads a process group of its own, and a
 * program that cannot run fails with the same words as without the helper.
 */
class ExecHelperTest {
  @TempDir Path dir;

  private SystemProcessRunner runner(LinkScope scope) {
    LinkContext context =
        LinkContext.of(
            Map.of("PATH", "/usr/bin:/bin"),
            dir,
            InputStream.nullInputStream(),
            new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(new ByteArrayOutputStream()),
            scope);
    return new SystemProcessRunner(RunnerOptions.quiet(context));
  }

  private static LinkScope client(int umask) {
    return LinkScope.forClient(
        umask, ClientTree.NATIVE.resolve("offlink-exec"), LinkScope.Observer.NONE);
  }

  private static Command sh(String script) {
    return Command.of(
        List.of("/bin/sh", "-c", script), Map.of("PATH", "/usr/bin:/bin"), Path.of("/"));
  }

  @Test
  void childrenGetTheClientsUmaskAndAProcessGroupOfTheirOwn() throws IOException {
    CommandResult r = runner(client(027)).run(sh("umask; echo $$ $(ps -o pgid= -p $$)"));
    assertEquals(0, r.exitStatus(), r.stderr());
    String[] lines = r.stdout().split("\n");
    assertEquals("0027", lines[0]);
    String[] ids = lines[1].trim().split("\\s+");
    assertEquals(ids[0], ids[1], "the child leads its own process group");
    ClientTest.assertClean(r.stderr());
  }

  @Test
  void aProgramThatCannotRunFailsAsWithoutTheHelper() {
    Command missing = Command.of(List.of("/nonexistent/gcc", "-v"), Map.of(), Path.of("/"));
    IOException direct =
        assertThrows(IOException.class, () -> runner(LinkScope.withUmask(022)).run(missing));
    IOException helped = assertThrows(IOException.class, () -> runner(client(022)).run(missing));
    assertEquals(direct.getMessage(), helped.getMessage());
    assertEquals("cannot run '/nonexistent/gcc': no such file or directory", helped.getMessage());
  }
}
