package org.offlink.ltowrapper;

import java.io.IOException;
import java.util.List;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.ltowrapper.io.EarlyDebugCopier;
import org.offlink.ltowrapper.jobs.JobserverClient;

/**
 * The production collaborators of lto-wrapper. The process runner, COLLECT_GCC_OPTIONS quoting,
 * {@code .opts} reader and offload list reader live in other modules and are not wired yet: each
 * placeholder fails with a clear fatal error when first used.
 */
final class LtoWrapperWiring {
  private LtoWrapperWiring() {}

  static LtoWrapperServices services() {
    return new LtoWrapperServices(
        new MissingRunner(),
        text -> {
          throw missing("COLLECT_GCC_OPTIONS quoting (org.offlink.streamer.opts.OptionQuoting)");
        },
        (input, section) -> {
          throw missing(".opts reader (org.offlink.streamer.elf.ElfReader)");
        },
        file -> {
          throw missing(".ofldlist reader (org.offlink.streamer)");
        },
        EarlyDebugCopier.none(),
        () -> Runtime.getRuntime().availableProcessors(),
        JobserverClient::procFd);
  }

  private static LtoWrapperException missing(String what) {
    return new LtoWrapperException("offlink was built without " + what);
  }

  /** Placeholder until accel-compiler-bridge's SystemProcessRunner is wired. */
  private static final class MissingRunner implements ProcessRunner {
    @Override
    public CommandResult run(Command command) throws IOException {
      throw missing(
          "a process runner (org.offlink.bridge.process.SystemProcessRunner) for "
              + List.of(command.program()));
    }
  }
}
