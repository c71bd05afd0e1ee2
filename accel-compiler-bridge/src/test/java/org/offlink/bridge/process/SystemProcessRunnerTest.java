package org.offlink.bridge.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.TestContexts;
import org.offlink.runtime.LinkContext;

class SystemProcessRunnerTest {
  @TempDir Path dir;
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
  private final Map<String, String> env = Map.of("PATH", "/usr/bin:/bin");

  private LinkContext context() {
    return TestContexts.of(Map.of("TMPDIR", dir.toString()), dir, err);
  }

  private SystemProcessRunner runner(boolean verbose, boolean saveTemps) {
    return new SystemProcessRunner(
        new RunnerOptions(context(), verbose, saveTemps, Optional.of("./x.pfx")));
  }

  @Test
  void capturesBothStreamsAndLooksUpPath() throws IOException {
    CommandResult r =
        runner(false, false)
            .run(Command.of(List.of("sh", "-c", "echo out; echo err >&2; exit 3"), env, dir));
    assertEquals(3, r.exitStatus());
    assertEquals("out\n", r.stdout());
    assertEquals("err\n", r.stderr());
  }

  @Test
  void drainsLargeOutputOnBothStreams() throws IOException {
    String script =
        "head -c 300000 /dev/zero | tr '\\0' a; head -c 300000 /dev/zero | tr '\\0' b >&2";
    CommandResult r = runner(false, false).run(Command.of(List.of("sh", "-c", script), env, dir));
    assertEquals(300000, r.stdout().length());
    assertEquals(300000, r.stderr().length());
  }

  @Test
  void lateInputReachesTheChildThroughStdinAndProcSelfFd() throws Exception {
    // 300 kB: more than a pipe holds, so the child reads while the bytes are written.
    byte[] bytes = "line\n".repeat(60_000).getBytes(StandardCharsets.US_ASCII);
    LateInput input = new LateInput();
    Thread supplier =
        new Thread(
            () -> {
              try {
                Thread.sleep(300); // the child starts (and blocks reading) first
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              input.supply(bytes);
            });
    supplier.start();
    long start = System.nanoTime();
    CommandResult r =
        runner(false, false)
            .run(Command.of(List.of("wc", "-l", "/proc/self/fd/0"), env, dir).withInput(input));
    supplier.join();
    assertEquals(0, r.exitStatus(), r.stderr());
    assertEquals("60000 /proc/self/fd/0\n", r.stdout());
    assertTrue(System.nanoTime() - start >= 250_000_000L, "the child waited for its input");
    assertTrue(runner(false, false).feedsLateInput());
  }

  @Test
  void abandonedLateInputEndsTheChildAndItsChildren() throws Exception {
    LateInput input = new LateInput();
    Path pidFile = dir.resolve("grandchild.pid");
    Thread abandon =
        new Thread(
            () -> {
              try {
                for (int i = 0; i < 200 && !Files.exists(pidFile); i++) {
                  Thread.sleep(20);
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              input.abandon();
            });
    abandon.start();
    // The shell's child waits on the shell's input, as the accel driver's assembler does (an
    // asynchronous command's own input would be /dev/null).
    String script = "exec 3<&0; cat <&3 > /dev/null & echo $! > grandchild.pid; wait";
    long start = System.nanoTime();
    CommandResult r =
        runner(false, false)
            .run(Command.of(List.of("sh", "-c", script), env, dir).withInput(input));
    abandon.join();
    assertTrue(r.exitStatus() > 128, "ended by a signal: " + r.exitStatus());
    assertTrue(System.nanoTime() - start < 10_000_000_000L);
    long grandchild = Long.parseLong(Files.readString(pidFile).strip());
    for (int i = 0; i < 100 && ProcessHandle.of(grandchild).isPresent(); i++) {
      Thread.sleep(20);
    }
    assertFalse(ProcessHandle.of(grandchild).isPresent(), "the reading grandchild has gone");
  }

  @Test
  void childThatExitsBeforeItsLateInputIsNotWaitedFor() throws Exception {
    LateInput input = new LateInput(); // never supplied: the child does not read it
    CommandResult r =
        runner(false, false)
            .run(Command.of(List.of("sh", "-c", "exit 4"), env, dir).withInput(input));
    assertEquals(4, r.exitStatus());
    input.supply(new byte[] {1}); // too late: nothing happens, nothing blocks
  }

  @Test
  void signalGives128PlusN() throws IOException {
    CommandResult r =
        runner(false, false).run(Command.of(List.of("sh", "-c", "kill -9 $$"), env, dir));
    assertEquals(128 + 9, r.exitStatus());
  }

  @Test
  void timeoutKillsChild() {
    Command c = Command.of(List.of("sleep", "30"), env, dir).withTimeout(Duration.ofMillis(200));
    long start = System.nanoTime();
    ToolFailedException e =
        assertThrows(ToolFailedException.class, () -> runner(false, false).run(c));
    assertEquals(-1, e.exitStatus());
    assertTrue(System.nanoTime() - start < 10_000_000_000L);
  }

  @Test
  void missingProgramIsIoException() {
    IOException e =
        assertThrows(
            IOException.class,
            () -> runner(false, false).run(Command.of(List.of("no-such-prog-xyz"), env, dir)));
    assertTrue(e.getMessage().contains("no-such-prog-xyz"), e.getMessage());
  }

  private Path showScript() throws IOException {
    Path script = dir.resolve("show.sh");
    Files.writeString(script, "#!/bin/sh\ncat \"${1#@}\"\n");
    script.toFile().setExecutable(true);
    return script;
  }

  @Test
  void responseFileWithSaveTempsIsKeptAndEchoed() throws IOException {
    Command c =
        Command.of(List.of(showScript().toString(), "", "a b", "q'\""), env, dir)
            .withResponseFile(".gcc_args");
    CommandResult r = runner(true, true).run(c);
    assertEquals(List.of(showScript().toString(), "@./x.pfx.gcc_args"), r.argv());
    String expected = "\"\"\na\\ b\nq\\'\\\"\n";
    assertEquals(expected, r.stdout());
    assertEquals(expected, Files.readString(dir.resolve("x.pfx.gcc_args")));
    assertEquals(showScript() + " @./x.pfx.gcc_args\n", errBytes.toString(StandardCharsets.UTF_8));
  }

  @Test
  void responseFileWithoutSaveTempsIsTemporary() throws IOException {
    Command c =
        Command.of(List.of(showScript().toString(), "one", "two words"), env, dir)
            .withResponseFile(".gcc_args");
    CommandResult r = runner(false, false).run(c);
    String rsp = r.argv().get(1);
    assertTrue(rsp.startsWith("@" + dir.resolve("cc")), rsp);
    assertEquals("one\ntwo\\ words\n", r.stdout());
    assertFalse(Files.exists(Path.of(rsp.substring(1))), "response file must be deleted");
    assertFalse(Files.exists(dir.resolve("x.pfx.gcc_args")));
  }

  @Test
  void saveTempsWithoutADumpPrefixStillRemovesTheTempResponseFile() throws IOException {
    Command c =
        Command.of(List.of(showScript().toString(), "one"), env, dir).withResponseFile(".gcc_args");
    RunnerOptions options = new RunnerOptions(context(), true, true, Optional.empty());
    CommandResult r = new SystemProcessRunner(options).run(c);
    String rsp = r.argv().get(1);
    assertTrue(rsp.startsWith("@" + dir.resolve("cc")), rsp);
    assertEquals(showScript() + " " + rsp + "\n", errBytes.toString(StandardCharsets.UTF_8));
    assertFalse(Files.exists(Path.of(rsp.substring(1))), "response file must be deleted");
  }

  /**
   * A child's own temporaries go to a folder of the link's (its TMPDIR), which the link's sweep
   * removes with what is left in it: a GCC driver ended mid-compile can leave one behind.
   */
  @Test
  void whatAChildLeavesInItsTmpdirGoesWithTheLink() throws IOException {
    LinkContext context = context();
    SystemProcessRunner runner =
        new SystemProcessRunner(new RunnerOptions(context, false, false, Optional.empty()), true);
    String script = "mktemp \"$TMPDIR/ccXXXXXX.o\"";
    Path left =
        Path.of(runner.run(Command.of(List.of("sh", "-c", script), env, dir)).stdout().trim());
    Path folder = left.getParent();
    assertEquals(dir, folder.getParent());
    assertTrue(folder.getFileName().toString().matches("cc[A-Za-z0-9]{6}\\.d"), folder.toString());
    assertTrue(Files.exists(left));
    Path second =
        Path.of(runner.run(Command.of(List.of("sh", "-c", script), env, dir)).stdout().trim());
    assertEquals(folder, second.getParent(), "one folder for the link's children");
    context.scope().close();
    try (var files = Files.list(dir)) {
      assertEquals(List.of(), files.toList());
    }
  }

  /**
   * With -save-temps the children's TMPDIR is the link's own, as GCC's; so it is for a runner not
   * asked for a folder (lto-wrapper's, which does not know the link's -save-temps).
   */
  @Test
  void withSaveTempsAChildsTmpdirIsTheLinks() throws IOException {
    Map<String, String> linkEnv = Map.of("PATH", "/usr/bin:/bin", "TMPDIR", dir.toString());
    Command echo = Command.of(List.of("sh", "-c", "echo \"$TMPDIR\""), linkEnv, dir);
    RunnerOptions saveTemps = new RunnerOptions(context(), false, true, Optional.empty());
    assertEquals(dir + "\n", new SystemProcessRunner(saveTemps, true).run(echo).stdout());
    assertEquals(dir + "\n", runner(false, false).run(echo).stdout());
  }
}
