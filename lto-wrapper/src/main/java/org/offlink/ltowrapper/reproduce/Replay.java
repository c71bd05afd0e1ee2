package org.offlink.ltowrapper.reproduce;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.ltowrapper.report.ReportEnvironment;
import org.offlink.ltowrapper.report.proto.BundledFile;
import org.offlink.ltowrapper.report.proto.EnvironmentVariable;
import org.offlink.ltowrapper.report.proto.LinkReport;
import org.offlink.ltowrapper.report.proto.ReproducerManifest;
import org.offlink.ltowrapper.reproduce.BundleReader.Bundle;
import org.offlink.streamer.inspect.Sha256;
import org.offlink.streamer.opts.OptionQuoting;

/**
 * Re-runs the lto-wrapper of a bundle in a scratch folder: the recorded files are put under {@code
 * SCRATCH/root} at their recorded paths (the offload list and the resolution file rewritten to
 * point there), the working directory moves likewise, the recorded environment replaces the current
 * one's link variables, {@code TMPDIR} is {@code SCRATCH/tmp}, and this offlink tree's {@code
 * lto-wrapper} runs (a process, argv list, no shell) with {@code OFFLINK_REPORT} set, so that the
 * replayed outcome and images can be compared with the recorded ones ({@link ReplayComparison}).
 */
public final class Replay {
  private final ProcessRunner runner;
  private final Path libexec;
  private final Map<String, String> baseEnvironment;

  /**
   * @param libexec this tree's {@code libexec/offlink} (holding {@code lto-wrapper} and {@code
   *     accel/<target>/mkoffload})
   * @param baseEnvironment the environment the recorded variables are laid over
   */
  public Replay(ProcessRunner runner, Path libexec, Map<String, String> baseEnvironment) {
    this.runner = runner;
    this.libexec = libexec;
    this.baseEnvironment = Map.copyOf(baseEnvironment);
  }

  /** What a replay ran and found. */
  public record Result(CommandResult run, LinkReport recorded, LinkReport replayed) {
    /** The comparison of the replayed run with the recorded one. */
    public ReplayComparison comparison() {
      return ReplayComparison.of(recorded, replayed);
    }
  }

  /** Replays {@code bundle} inside {@code scratch} (an empty folder the caller removes). */
  public Result run(Bundle bundle, Path scratch) throws IOException {
    ReproducerManifest m = bundle.manifest();
    Path root = scratch.resolve("root");
    Path tmp = Files.createDirectories(scratch.resolve("tmp"));
    PathRewriter rewriter = PathRewriter.of(mapping(m, root));
    for (BundledFile f : m.getFilesList()) {
      place(bundle, f, root, rewriter);
    }
    Path cwd = Files.createDirectories(under(root, m.getWorkingDirectory()));
    Path reportFile = scratch.resolve("replay-report.json");
    Map<String, String> env = environment(m, rewriter);
    env.put("TMPDIR", tmp.toString());
    env.put("OFFLINK_REPORT", reportFile.toString());
    // A replay rebuilds the images: an image from the device-image cache would reproduce nothing.
    env.merge("OFFLINK_FLAGS", "--no-cache", (recordedFlags, off) -> recordedFlags + " " + off);
    List<String> argv = new ArrayList<>();
    argv.add(libexec.resolve("lto-wrapper").toString());
    for (String a : m.getExpandedArgsList()) {
      argv.add(rewriter.word(a));
    }
    CommandResult result = runner.run(Command.of(argv, env, cwd));
    LinkReport recorded = ReportFiles.read(bundle.report());
    LinkReport replayed =
        Files.isRegularFile(reportFile)
            ? ReportFiles.read(reportFile)
            : LinkReport.newBuilder().setExitStatus(result.exitStatus()).build();
    return new Result(result, recorded, replayed);
  }

  private Map<String, String> mapping(ReproducerManifest m, Path root) {
    Map<String, String> map = new HashMap<>();
    for (BundledFile f : m.getFilesList()) {
      map.put(f.getPath(), under(root, f.getPath()).toString());
    }
    map.put(m.getWorkingDirectory(), under(root, m.getWorkingDirectory()).toString());
    if (!m.getOfflinkLibexec().isEmpty()) {
      map.put(m.getOfflinkLibexec(), libexec.toString());
    }
    return map;
  }

  private static Path under(Path root, String absolute) {
    return root.resolve(absolute.substring(1));
  }

  private static void place(Bundle bundle, BundledFile f, Path root, PathRewriter rewriter)
      throws IOException {
    Path stored = bundle.file(f.getPath());
    if (!Sha256.hex(stored).equals(f.getSha256())) {
      throw new IllegalArgumentException(
          stored
              + ": expected the SHA-256 the manifest records ("
              + f.getSha256()
              + "), found another: the bundle is damaged");
    }
    Path target = under(root, f.getPath());
    Files.createDirectories(target.getParent());
    String role = f.getRole();
    if (!role.equals(LinkInputs.OFFLOAD_LIST) && !role.equals(LinkInputs.RESOLUTION)) {
      Files.copy(stored, target);
      return;
    }
    String text = Files.readString(stored, StandardCharsets.UTF_8);
    text = role.equals(LinkInputs.RESOLUTION) ? rewriter.resolution(text) : rewriter.lines(text);
    Files.writeString(target, text, StandardCharsets.UTF_8);
  }

  /** The base environment less every link variable, plus the recorded ones, rewritten. */
  private Map<String, String> environment(ReproducerManifest m, PathRewriter rewriter) {
    Map<String, String> env = new HashMap<>(baseEnvironment);
    env.keySet().removeIf(ReportEnvironment::recorded);
    for (EnvironmentVariable v : m.getEnvironmentList()) {
      env.put(v.getName(), rewritten(v, rewriter));
    }
    return env;
  }

  private static String rewritten(EnvironmentVariable v, PathRewriter rewriter) {
    switch (v.getName()) {
      case "COLLECT_GCC_OPTIONS":
        List<String> words = new ArrayList<>();
        for (String w : OptionQuoting.parse(v.getValue())) {
          words.add(rewriter.word(w));
        }
        return OptionQuoting.format(words);
      case "COMPILER_PATH":
      case "LIBRARY_PATH":
      case "PATH":
        return rewriter.pathList(v.getValue());
      default:
        return rewriter.word(v.getValue());
    }
  }
}
