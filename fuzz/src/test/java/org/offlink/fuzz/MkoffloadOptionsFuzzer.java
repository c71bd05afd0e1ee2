package org.offlink.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.offlink.bridge.gcc.OffloadOptionException;
import org.offlink.bridge.gcc.OffloadOptions;
import org.offlink.bridge.mkoffload.MkoffloadInvocation;
import org.offlink.bridge.process.ResponseFileExpander;
import org.offlink.bridge.process.ResponseFileExpander.ResponseFileException;

/**
 * mkoffload's option parsing: a response file's text, the argv it expands to, {@code OFFLINK_FLAGS}
 * and the program path, through {@link MkoffloadInvocation} (offlink's own words and the target)
 * and {@link OffloadOptions} (GCC's). Bad words must fail with the documented exceptions and their
 * one-line messages.
 */
public final class MkoffloadOptionsFuzzer {
  private MkoffloadOptionsFuzzer() {}

  /** Entry point for Jazzer's command line (scripts/fuzz.sh). */
  public static void fuzzerTestOneInput(FuzzedDataProvider in) {
    String flags = in.consumeString(64);
    String program = in.consumeString(64);
    List<String> argv = new ArrayList<>();
    argv.add("mkoffload");
    int n = in.consumeInt(0, 12);
    for (int i = 0; i < n; i++) {
      argv.add(in.consumeString(48));
    }
    Path rsp = FuzzFiles.write("args.rsp", in.consumeRemainingAsBytes());
    argv.add("@" + rsp);
    List<String> args;
    try {
      args = new ResponseFileExpander(rsp.getParent()).expand(argv);
    } catch (ResponseFileException e) {
      return; // rejected cleanly
    }
    List<String> rest = args.subList(1, args.size());
    try {
      MkoffloadInvocation.parse(rest, program, Map.of("OFFLINK_FLAGS", flags));
    } catch (IllegalArgumentException e) {
      requireOneLine(e.getMessage());
    }
    try {
      OffloadOptions.parse(rest);
    } catch (OffloadOptionException e) {
      requireOneLine(e.getMessage());
    }
  }

  private static void requireOneLine(String message) {
    if (message == null || message.isEmpty()) {
      throw new IllegalStateException("an option error without a message");
    }
  }
}
