package org.offlink.cli.replay;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.cli.replay.BundleReader.Bundle;
import org.offlink.ltowrapper.report.proto.BundledFile;
import org.offlink.ltowrapper.report.proto.LinkReport;
import org.offlink.ltowrapper.report.proto.ReproducerManifest;
import org.offlink.ltowrapper.reproduce.BundlePaths;
import org.offlink.ltowrapper.reproduce.LinkInputs;
import org.offlink.streamer.inspect.Sha256;

/**
 * Re-runs the lto-wrapper of a bundle in a scratch folder, treating the bundle as data from a
 * stranger: the recorded files are put under {@code SCRATCH/root} at their recorded paths (mode
 * 0600: nothing of the bundle is ever executable), the offload list and the resolution file
 * rewritten to point there; the working directory moves likewise; every path the link reads or
 * writes ({@link ReplayPaths#data}: inputs, {@code -foffload-objects=}, {@code -o}, dump names) is
 * inside the root or the bundle is refused; tools are this tree's and this machine's ({@link
 * ReplayPaths#tool}); the recorded environment is applied as {@link ReplayEnvironment} allows; the
 * recorded options are vetted ({@link ReplayOptions}); {@code TMPDIR} is {@code SCRATCH/tmp}, the
 * report goes to {@code SCRATCH/replay-report.json}, no bundle is written and no cache is used.
 * Then this offlink tree's {@code lto-wrapper} runs (a process, argv list, no shell), and the
 * replayed outcome and images are compared with the recorded ones ({@link ReplayComparison}).
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

  /**
   * What a replay ran and found; {@code notes} says what of the bundle was not applied, one line
   * each.
   */
  public record Result(
      CommandResult run, LinkReport recorded, LinkReport replayed, List<String> notes) {
    /** Copies the notes. */
    public Result {
      notes = List.copyOf(notes);
    }

    /** The comparison of the replayed run with the recorded one. */
    public ReplayComparison comparison() {
      return ReplayComparison.of(recorded, replayed);
    }
  }

  /**
   * Replays {@code bundle} inside {@code scratch} (an empty folder the caller removes).
   *
   * @param bundleFolder the bundle's own folder when it was given as one (never a tool folder)
   * @throws IllegalArgumentException one line naming the manifest entry the replay refuses
   */
  public Result run(Bundle bundle, Path scratch, Optional<Path> bundleFolder) throws IOException {
    ReproducerManifest m = bundle.manifest();
    String name = bundle.name() + ": " + BundlePaths.MANIFEST;
    Files.createDirectories(scratch);
    Path root = scratch.resolve("root");
    ReplayPaths paths =
        new ReplayPaths(
            scratch,
            root,
            m.getWorkingDirectory(),
            m.getOfflinkLibexec(),
            libexec,
            bundleFolder,
            name);
    PathRewriter rewriter = PathRewriter.of(mapping(m, paths));
    ReplayOptions options = new ReplayOptions(paths, rewriter);
    List<String> argv = new ArrayList<>();
    argv.add(libexec.resolve("lto-wrapper").toString());
    for (int i = 0; i < m.getExpandedArgsCount(); i++) {
      argv.add(argument("expanded_args[" + i + "]", m.getExpandedArgs(i), paths));
    }
    Path tmp = scratch.resolve("tmp");
    Path reportFile = scratch.resolve("replay-report.json");
    ReplayEnvironment.Result env =
        ReplayEnvironment.of(baseEnvironment, m, paths, options, own(m, tmp, reportFile));
    // Everything is checked: only now is anything written.
    Files.createDirectories(tmp);
    for (int i = 0; i < m.getFilesCount(); i++) {
      place(bundle, m.getFiles(i), "files[" + i + "]", paths);
    }
    Path cwd = Files.createDirectories(paths.cwd());
    List<String> lists = new ArrayList<>();
    for (BundledFile f : m.getFilesList()) {
      if (f.getRole().equals(LinkInputs.OFFLOAD_LIST)) {
        lists.addAll(Files.readAllLines(paths.file(f.getPath()), StandardCharsets.UTF_8));
      }
    }
    ObjectOptions.check(ObjectOptions.spellings(lists, argv.subList(1, argv.size())), cwd, options);
    CommandResult result = runner.run(Command.of(argv, env.environment(), cwd));
    LinkReport recorded = ReportFiles.read(bundle.report());
    LinkReport replayed =
        Files.isRegularFile(reportFile)
            ? ReportFiles.read(reportFile)
            : LinkReport.newBuilder().setExitStatus(result.exitStatus()).build();
    return new Result(result, recorded, replayed, env.notes());
  }

  /** As {@link #run(Bundle, Path, Optional)} for a bundle given as a tar. */
  public Result run(Bundle bundle, Path scratch) throws IOException {
    return run(bundle, scratch, Optional.empty());
  }

  /** What the replay sets itself: its folders, this tree, no cache (an image must be rebuilt). */
  private Map<String, String> own(ReproducerManifest m, Path tmp, Path reportFile) {
    Map<String, String> own = new HashMap<>();
    own.put("TMPDIR", tmp.toString());
    own.put("OFFLINK_REPORT", reportFile.toString());
    own.put("COLLECT_LTO_WRAPPER", libexec.resolve("lto-wrapper").toString());
    String flags =
        m.getEnvironmentList().stream()
            .filter(v -> v.getName().equals("OFFLINK_FLAGS"))
            .map(v -> v.getValue() + " ")
            .findFirst()
            .orElse("");
    own.put("OFFLINK_FLAGS", flags + "--no-cache");
    return own;
  }

  /**
   * One of lto-wrapper's own arguments: its files ({@code -foffload-objects=}, which lto-wrapper
   * deletes, {@code -fresolution=}, inputs, {@code @file}) by {@link ReplayPaths#data}, an option's
   * path value likewise, other options as recorded.
   */
  private static String argument(String field, String arg, ReplayPaths paths) {
    if (arg.startsWith("@")) {
      return "@" + paths.data(field, arg.substring(1));
    }
    if (arg.startsWith("-")) {
      int eq = arg.indexOf('=');
      String value = eq < 0 ? "" : arg.substring(eq + 1);
      if (eq < 0 || !(value.contains("/") || value.equals(".."))) {
        return arg;
      }
      return arg.substring(0, eq + 1) + paths.data(field, value);
    }
    // An archive member is spelled FILE@0xOFFSET: the file is the path.
    int at = arg.lastIndexOf("@0x");
    String file = at > 0 ? arg.substring(0, at) : arg;
    return paths.data(field, file) + (at > 0 ? arg.substring(at) : "");
  }

  /** The recorded files and the working directory under the root; offlink's folder as this one. */
  private Map<String, String> mapping(ReproducerManifest m, ReplayPaths paths) {
    Map<String, String> map = new HashMap<>();
    for (BundledFile f : m.getFilesList()) {
      map.put(f.getPath(), paths.file(f.getPath()).toString());
    }
    map.put(m.getWorkingDirectory(), paths.cwd().toString());
    if (!m.getOfflinkLibexec().isEmpty()) {
      map.put(m.getOfflinkLibexec(), libexec.toString());
    }
    return map;
  }

  /**
   * Puts the recorded file {@code f} in place: checked against its digest, written new (mode 0600,
   * never through a link); the offload list and the resolution file name their objects by {@link
   * ReplayPaths#data}.
   */
  private static void place(Bundle bundle, BundledFile f, String field, ReplayPaths paths)
      throws IOException {
    Path stored = bundle.file(f.getPath());
    if (!Files.isRegularFile(stored, LinkOption.NOFOLLOW_LINKS)) {
      throw paths.refuse(
          field, "a file stored in the bundle", "none for " + OneLine.quoted(f.getPath()));
    }
    if (!Sha256.hex(stored).equals(f.getSha256())) {
      throw new IllegalArgumentException(
          bundle.name()
              + ": "
              + BundlePaths.FILES
              + BundlePaths.inside(f.getPath()).orElseThrow()
              + ": expected the SHA-256 the manifest records ("
              + f.getSha256()
              + "), found another: the bundle is damaged");
    }
    Path target = paths.file(f.getPath());
    try {
      Files.createDirectories(target.getParent());
      Files.createFile(
          target,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (FileSystemException e) {
      throw paths.refuse(
          field + ".path",
          "a file path no other recorded path is below",
          OneLine.quoted(f.getPath()));
    }
    String role = f.getRole();
    if (!role.equals(LinkInputs.OFFLOAD_LIST) && !role.equals(LinkInputs.RESOLUTION)) {
      try (InputStream in = Files.newInputStream(stored, LinkOption.NOFOLLOW_LINKS);
          OutputStream out =
              Files.newOutputStream(target, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
        in.transferTo(out);
      }
      return;
    }
    String text = BundleReader.text(Files.readAllBytes(stored), bundle.name() + ": " + field);
    String what = field + " (" + role + ")";
    text =
        role.equals(LinkInputs.RESOLUTION)
            ? PathRewriter.resolution(text, n -> paths.data(what, n))
            : PathRewriter.lines(text, n -> paths.data(what, n));
    Files.writeString(target, text, StandardCharsets.UTF_8, StandardOpenOption.WRITE);
  }
}
