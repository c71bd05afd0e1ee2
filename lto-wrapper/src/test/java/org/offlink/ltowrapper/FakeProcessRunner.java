package org.offlink.ltowrapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.bridge.process.ResponseFiles;

/**
 * Records every command; a {@code @rsp} argument is expanded while the file still exists, so tests
 * see the full argv. A handler simulates the child's effects and chooses its exit status.
 */
final class FakeProcessRunner implements ProcessRunner {
  /** Simulates one child. */
  interface Handler {
    int handle(List<String> argv, Path cwd) throws Exception;
  }

  /** Thrown by a handler to make the child fail with {@code status} and {@code stderr}. */
  static final class Failure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int status;
    final String stderr;

    Failure(int status, String stderr) {
      super(stderr);
      this.status = status;
      this.stderr = stderr;
    }
  }

  final List<List<String>> commands = Collections.synchronizedList(new ArrayList<>());
  final List<List<String>> rawCommands = Collections.synchronizedList(new ArrayList<>());
  private final Handler handler;

  FakeProcessRunner(Handler handler) {
    this.handler = handler;
  }

  @Override
  public CommandResult run(Command command) throws IOException {
    List<String> argv = new ArrayList<>();
    argv.add(command.program());
    for (String a : command.argv().subList(1, command.argv().size())) {
      if (a.startsWith("@")) {
        Path rsp = command.workingDirectory().resolve(a.substring(1));
        argv.addAll(
            ResponseFiles.split(new String(Files.readAllBytes(rsp), StandardCharsets.UTF_8)));
      } else {
        argv.add(a);
      }
    }
    rawCommands.add(command.argv());
    commands.add(argv);
    int status;
    try {
      status = handler.handle(argv, command.workingDirectory());
    } catch (Failure f) {
      return new CommandResult(command.argv(), f.status, "", f.stderr, Duration.ZERO);
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException(e);
    }
    return new CommandResult(command.argv(), status, "", "", Duration.ZERO);
  }
}
