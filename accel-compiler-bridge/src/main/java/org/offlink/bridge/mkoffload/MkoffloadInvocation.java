package org.offlink.bridge.mkoffload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.offlink.bridge.OfflinkFlags;
import org.offlink.bridge.process.ResponseFileExpander;
import org.offlink.bridge.process.ResponseFileExpander.ResponseFileException;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.bridge.wrapper.WrapperMode;

/**
 * Reads a mkoffload command line (the {@code mkoffload} launcher's): offlink's own options ({@code
 * --target=}, {@code --wrapper=}; also read from the {@code OFFLINK_FLAGS} environment variable,
 * through {@link OfflinkFlags}, so they reach us through GCC) are taken out, everything else is
 * GCC's, for {@link org.offlink.bridge.gcc.OffloadOptions#parse}. The target comes from {@code
 * --target=} or from the install path {@code .../accel/<target>/mkoffload}. lto-wrapper's
 * in-process runs have no command line: they hand over a typed {@link MkoffloadRequest}.
 */
public final class MkoffloadInvocation {
  private MkoffloadInvocation() {}

  /**
   * A command line, read.
   *
   * @param target the offload target
   * @param gccArguments GCC's arguments, without offlink's own options
   * @param mode how the wrapper object is written
   */
  public record CommandLine(OffloadTarget target, List<String> gccArguments, WrapperMode mode) {
    /** Copies the arguments. */
    public CommandLine {
      gccArguments = List.copyOf(gccArguments);
    }
  }

  /**
   * The request for a command line as the {@code mkoffload} launcher receives it: {@code @file}
   * arguments (lto-wrapper passes GCC's arguments in one) expanded against {@code workingDirectory}
   * first, then {@link #parse}.
   *
   * @throws ResponseFileException for a response file that cannot be expanded
   * @throws IllegalArgumentException with a one-line reason for a bad offlink option or target
   */
  public static CommandLine parseCommandLine(
      List<String> args, String programPath, Map<String, String> environment, Path workingDirectory)
      throws ResponseFileException {
    List<String> argv = new ArrayList<>();
    argv.add(programPath);
    argv.addAll(args);
    List<String> expanded = new ResponseFileExpander(workingDirectory).expand(argv);
    return parse(expanded.subList(1, expanded.size()), programPath, environment);
  }

  /**
   * The command line {@code args} (expanded: no {@code @file} is read here) run as {@code
   * programPath} in {@code environment}.
   *
   * @throws IllegalArgumentException with a one-line reason for a bad offlink option or target
   */
  public static CommandLine parse(
      List<String> args, String programPath, Map<String, String> environment) {
    // OFFLINK_FLAGS first (lto-wrapper's words are accepted and ignored), then argv's own words.
    OfflinkFlags flags = OfflinkFlags.fromEnvironment(environment);
    List<String> gcc = new ArrayList<>();
    Optional<String> target = Optional.empty();
    for (String a : args) {
      if (a.startsWith("--target=")) {
        target = Optional.of(a.substring("--target=".length()));
      } else if (a.startsWith(OfflinkFlags.Flag.WRAPPER.spelling())) {
        flags = flags.with(a);
      } else {
        gcc.add(a);
      }
    }
    WrapperMode mode = flags.wrapper().orElse(WrapperMode.ELF);
    OffloadTarget resolved;
    if (target.isPresent()) {
      String t = target.get();
      resolved =
          OffloadTarget.byTriplet(t)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "unknown offload target '"
                              + t
                              + "' (expected nvptx-none or amdgcn-amdhsa)"));
    } else {
      resolved =
          targetFromPath(programPath)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "cannot tell the offload target from '"
                              + programPath
                              + "': install as .../accel/<target>/mkoffload or pass --target="));
    }
    return new CommandLine(resolved, gcc, mode);
  }

  /** The target named by {@code .../accel/<target>/mkoffload}, if the path has that shape. */
  public static Optional<OffloadTarget> targetFromPath(String path) {
    if (path.isEmpty()) {
      return Optional.empty();
    }
    Path dir = Path.of(path).getParent();
    if (dir == null || dir.getParent() == null || dir.getParent().getFileName() == null) {
      return Optional.empty();
    }
    if (!dir.getParent().getFileName().toString().equals("accel")) {
      return Optional.empty();
    }
    return OffloadTarget.byTriplet(dir.getFileName().toString());
  }
}
