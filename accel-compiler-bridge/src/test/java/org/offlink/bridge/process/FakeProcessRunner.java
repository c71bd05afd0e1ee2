package org.offlink.bridge.process;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A {@link ProcessRunner} for unit tests: records every command and answers with a canned result
 * computed by {@code responder} (which may also create the files a real tool would write).
 */
public final class FakeProcessRunner implements ProcessRunner {
  /** Computes the answer to one command. */
  @FunctionalInterface
  public interface Responder {
    /** Answers {@code command}. */
    CommandResult answer(Command command) throws IOException;
  }

  private final List<Command> commands = new ArrayList<>();
  private final Responder responder;

  /** A fake answering every command with {@code responder}. */
  public FakeProcessRunner(Responder responder) {
    this.responder = responder;
  }

  /** A fake answering every command with exit status 0 and no output. */
  public static FakeProcessRunner succeeding() {
    return new FakeProcessRunner(c -> ok(c, ""));
  }

  /** A fake answering by program: the function maps argv to the result. */
  public static FakeProcessRunner answering(Function<Command, CommandResult> f) {
    return new FakeProcessRunner(f::apply);
  }

  /** A successful result for {@code c} with {@code stdout}. */
  public static CommandResult ok(Command c, String stdout) {
    return new CommandResult(c.argv(), 0, stdout, "", Duration.ZERO);
  }

  /** A failed result for {@code c}. */
  public static CommandResult failed(Command c, int status, String stderr) {
    return new CommandResult(c.argv(), status, "", stderr, Duration.ZERO);
  }

  @Override
  public synchronized CommandResult run(Command command) throws IOException {
    commands.add(command);
    return responder.answer(command);
  }

  /** The commands run so far, in order. */
  public synchronized List<Command> commands() {
    return List.copyOf(commands);
  }
}
