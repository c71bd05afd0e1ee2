package org.offlink.bridge.nvptx;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.bridge.temp.TempFiles;
import org.offlink.runtime.IoReasons;
import org.offlink.runtime.NativeCharset;
import org.offlink.runtime.Sha256Digest;

/**
 * Links the nvptx accel driver's PTX in-process instead of through {@code nvptx-none-ld}, where
 * that gives the same bytes: the accel driver runs with the folder of offlink's {@code real-ld}
 * (link-server/src/main/c/realld.c) at the end of {@code COMPILER_PATH}. collect2 looks for {@code
 * real-ld} along that path before {@code ld}, so it runs ours with the command line it would have
 * given the linker; ours writes it down with the linker's input files, which the accel driver
 * removes as soon as collect2 returns, and {@link #finish} links as that linker's version does
 * ({@link NvptxLdVersion}: {@link NvptxLinker}, {@link NvptxLinker2024}). It does so in a link
 * server only, whose {@link PtxArchives} keeps the libraries it has read; while they are being read
 * (a server's first nvptx link), and whenever the in-process link cannot be sure of its result,
 * {@link #finish} runs nvptx-tools' linker itself on the same command line and files.
 *
 * <p>Only where that is sure to be the same program: the accel tool folder's {@code ld} is a binary
 * of {@link #KNOWN_LINKERS} (its SHA-256), no {@code real-ld} or {@code collect-ld} of GCC's own is
 * on the accel driver's program path, the accel driver prints nothing of its steps ({@code -v},
 * {@code -###}, {@code -save-temps}, {@code -time}, {@code -wrapper}, {@code -B} keep the real
 * linker), and nothing in the environment changes how collect2 or the linker look for files. {@code
 * OFFLINK_FLAGS=--external-nvptx-ld} turns it off. When nvptx-tools' linker fails too (an
 * unresolved symbol), the caller runs the accel driver again without the stand-in, so that GCC's
 * own diagnostics are shown.
 */
public final class NvptxLinkerStandIn {
  /**
   * {@code nvptx-none-ld} binaries whose behaviour offlink reproduces, by SHA-256 (amd64): Debian
   * 12's nvptx-tools 0.20220610-1 ({@link NvptxLinker}), Debian 13's 0.20240810-3 and sid's
   * 0.20260402-1 ({@link NvptxLinker2024}).
   */
  static final Map<String, NvptxLdVersion> KNOWN_LINKERS =
      Map.of(
          "8e90edd2eff1c20efeae8ff705ad1e0a3dc7e5d2f338a1a58d6e8ac024a9ce6f",
          NvptxLdVersion.TOOLS_2022,
          "7b84548fcbb78a46ccfe567988b1c8ce2f60e9b5954eefdde1296d059bfc8c17",
          NvptxLdVersion.TOOLS_2024,
          "7ebaa1733f2172f748f9369b29f5b71b9a804700f6c5371502b0ea6d8c5f8a5b",
          NvptxLdVersion.TOOLS_2024);

  /** The sizes of {@link #KNOWN_LINKERS}: a linker of another size is not hashed. */
  static final Set<Long> KNOWN_LINKER_SIZES = Set.of(31464L, 1036616L, 1032520L);

  /** The environment variable naming the file {@code real-ld} writes its command line to. */
  static final String ARGV_VARIABLE = "OFFLINK_NVPTX_LD_ARGV";

  private static final List<String> UNSAFE_VARIABLES =
      List.of("COMPILER_PATH", "GCC_EXEC_PREFIX", "POSIXLY_CORRECT", "COLLECT_VERBOSE");

  private final Path folder;
  private final Path argvFile;
  private final Path linker;
  private final PtxArchives archives;
  private final NvptxLdVersion version;

  private NvptxLinkerStandIn(
      Path folder, Path argvFile, Path linker, PtxArchives archives, NvptxLdVersion version) {
    this.folder = folder;
    this.argvFile = argvFile;
    this.linker = linker;
    this.archives = archives;
    this.version = version;
  }

  /**
   * The stand-in for one accel link, or empty where the real linker must run.
   *
   * @param standIn offlink's {@code accel/nvptx-none/linker} folder, if known
   * @param archives the link server's archives ({@link PtxArchives#NONE} elsewhere: no stand-in)
   * @param toolDirectory the accel driver's own program folder ({@code .../accel/nvptx-none})
   * @param accelArgv the accel driver's command line
   * @param env the accel driver's environment
   */
  public static Optional<NvptxLinkerStandIn> prepare(
      Optional<Path> standIn,
      PtxArchives archives,
      Path toolDirectory,
      List<String> accelArgv,
      Map<String, String> env,
      TempFiles temps)
      throws IOException {
    if (standIn.isEmpty()
        || !archives.enabled()
        || !Files.isExecutable(standIn.get().resolve("real-ld"))
        || temps.saveTemps()
        || UNSAFE_VARIABLES.stream().anyMatch(env::containsKey)
        || accelArgv.stream().skip(1).anyMatch(NvptxLinkerStandIn::showsSteps)) {
      return Optional.empty();
    }
    Path ld = toolDirectory.resolve("ld");
    if (archives.isEmpty()) {
      // A server's first nvptx link would run nvptx-none-ld anyway, only later and through one
      // more process: it runs as GCC runs it, and in the background, off that link's path, the
      // linker is identified and the libraries GCC's link line names (the gomp multilib's
      // first) are read for the links after it.
      List<Path> libraries = new ArrayList<>();
      for (Path folder : libraryFolders(toolDirectory)) {
        for (Path dir : List.of(folder.resolve("mgomp"), folder)) {
          for (String name : DEFAULT_LIBRARIES) {
            libraries.add(dir.resolve(name));
          }
        }
      }
      archives.prefetch(ld, NvptxLinkerStandIn::knownLinker, libraries);
      return Optional.empty();
    }
    Optional<NvptxLdVersion> version =
        Files.isRegularFile(ld)
            ? archives.linker(ld, NvptxLinkerStandIn::knownLinker)
            : Optional.empty();
    if (version.isEmpty()) {
      return Optional.empty();
    }
    // The other folders of the accel driver's program path (Debian's layout): GCC's own
    // real-ld or collect-ld there would be what collect2 runs.
    Path prefixBin = toolDirectory.resolve("../../../../../../nvptx-none/bin").normalize();
    for (Path dir : List.of(toolDirectory, prefixBin)) {
      if (Files.exists(dir.resolve("real-ld")) || Files.exists(dir.resolve("collect-ld"))) {
        return Optional.empty();
      }
    }
    return Optional.of(
        new NvptxLinkerStandIn(
            standIn.get(), temps.scratch(".ldargv"), ld, archives, version.get()));
  }

  /**
   * Where the accel compiler's libraries are: its program folder (Debian 12: {@code
   * /usr/lib/gcc/<triplet>/12/accel/nvptx-none} holds both), and from Debian 13 on, where programs
   * are under {@code /usr/libexec/gcc}, the same folder under {@code /usr/lib/gcc}.
   */
  static List<Path> libraryFolders(Path toolDirectory) {
    List<Path> folders = new ArrayList<>(List.of(toolDirectory));
    String dir = toolDirectory.toString();
    int at = dir.lastIndexOf("/libexec/gcc/");
    if (at >= 0) {
      folders.add(Path.of(dir.substring(0, at) + "/lib/gcc/" + dir.substring(at + 13)));
    }
    return folders;
  }

  /** The libraries of GCC's nvptx link line ({@code -lgomp -lgcc -lc}), and libm. */
  private static final List<String> DEFAULT_LIBRARIES =
      List.of("libc.a", "libgcc.a", "libgomp.a", "libm.a");

  /** {@code env} with the stand-in's folder on the program path and its argument file named. */
  public Map<String, String> environment(Map<String, String> env) {
    Map<String, String> e = new HashMap<>(env);
    e.put("COMPILER_PATH", folder.toString());
    e.put(ARGV_VARIABLE, argvFile.toString());
    return e;
  }

  /**
   * After the accel driver succeeded: links the PTX in-process when the stand-in ran and the
   * libraries have been read, else runs nvptx-tools' linker on what the stand-in recorded (nothing
   * to do when collect2 ran another linker, whose output is there); how the PTX was linked, or
   * {@link Linked#FAILED} when that linker failed too, or the record cannot be used, and the accel
   * driver must run again without the stand-in.
   *
   * @param env the accel driver's environment without the stand-in
   */
  public Linked finish(
      Path workingDirectory, Map<String, String> env, ProcessRunner runner, PrintStream err)
      throws IOException {
    byte[] recorded = Files.readAllBytes(argvFile);
    if (recorded.length == 0) {
      return Linked.OTHER_LINKER;
    }
    Recorded r;
    try {
      r = Recorded.read(recorded);
    } catch (NvptxLinker.Unsupported e) {
      return Linked.FAILED;
    }
    try {
      NvptxLdVersion.LinkedPtx linked =
          version.link(r.args(), workingDirectory, r.files(), this::archive);
      Path output = workingDirectory.resolve(linked.output());
      try {
        Files.write(output, linked.ptx());
      } catch (IOException e) {
        throw new IOException(output + ": " + IoReasons.reason(e), e);
      }
      return Linked.IN_PROCESS;
    } catch (NvptxLinker.Unsupported e) {
      return runLinker(workingDirectory, env, runner, err, r) ? Linked.NVPTX_TOOLS : Linked.FAILED;
    }
  }

  /** How {@link #finish} linked the PTX. */
  public enum Linked {
    /** In this process ({@link NvptxLdVersion}). */
    IN_PROCESS,
    /** By nvptx-tools' linker on the stand-in's record (libraries not read yet, or unsure). */
    NVPTX_TOOLS,
    /** collect2 ran a linker other than the stand-in. */
    OTHER_LINKER,
    /** Not at all: the accel driver must run again without the stand-in. */
    FAILED
  }

  private PtxArchive archive(Path file) throws NvptxLinker.Unsupported {
    return archives
        .get(file, version)
        .orElseThrow(() -> new NvptxLinker.Unsupported(file + " is being read"));
  }

  /**
   * nvptx-tools' linker on the recorded command line, in the folder and environment collect2 gave
   * it, with the input files the accel driver has removed put back for it and removed after.
   */
  private boolean runLinker(
      Path cwd, Map<String, String> env, ProcessRunner runner, PrintStream err, Recorded r)
      throws IOException {
    List<Path> restored = new ArrayList<>();
    try {
      for (Map.Entry<String, byte[]> f : r.files().entrySet()) {
        Path p = cwd.resolve(f.getKey());
        if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
          continue;
        }
        try {
          Files.createFile(p);
          restored.add(p);
          Files.write(p, f.getValue(), StandardOpenOption.WRITE);
        } catch (IOException e) {
          return false; // a full TMPDIR: GCC's own run then says so
        }
      }
      List<String> argv = new ArrayList<>();
      argv.add(linker.toString());
      argv.addAll(r.args());
      CommandResult result =
          runner.run(Command.of(argv, env, cwd).as(Command.Role.ACCEL_COMPILER_HELD));
      if (!result.succeeded()) {
        return false;
      }
      result.showOn(err);
      return true;
    } finally {
      for (Path p : restored) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** Whether {@code real-ld} ran (then a failure of the accel driver may be its own). */
  public boolean ran() throws IOException {
    return Files.size(argvFile) > 0;
  }

  /**
   * What {@code real-ld} wrote (the format is in its source): the linker's arguments, and the
   * contents of those that name regular files, by argument.
   */
  record Recorded(List<String> args, Map<String, byte[]> files) {
    static Recorded read(byte[] b) throws NvptxLinker.Unsupported {
      int[] at = {0};
      if (!"real-ld".equals(string(b, at))) {
        throw new NvptxLinker.Unsupported("not a real-ld record");
      }
      int argc = number(b, at);
      List<String> args = new ArrayList<>();
      for (int i = 0; i < argc; i++) {
        args.add(string(b, at));
      }
      Map<String, byte[]> files = new HashMap<>();
      while (at[0] < b.length) {
        int index = number(b, at);
        int size = number(b, at);
        if (index < 1 || index > argc || size > b.length - at[0]) {
          throw new NvptxLinker.Unsupported("a truncated real-ld record");
        }
        files.put(args.get(index - 1), Arrays.copyOfRange(b, at[0], at[0] + size));
        at[0] += size;
      }
      return new Recorded(args, files);
    }

    private static String string(byte[] b, int[] at) throws NvptxLinker.Unsupported {
      int start = at[0];
      int end = start;
      while (end < b.length && b[end] != 0) {
        end++;
      }
      if (end == b.length) {
        throw new NvptxLinker.Unsupported("a truncated real-ld record");
      }
      at[0] = end + 1;
      // The JVM's own charset for file names: the names come back as the files' bytes.
      return new String(b, start, end - start, NativeCharset.CHARSET);
    }

    private static int number(byte[] b, int[] at) throws NvptxLinker.Unsupported {
      String s = string(b, at);
      if (s.isEmpty() || s.length() > 9 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
        throw new NvptxLinker.Unsupported("a bad number in a real-ld record: " + s);
      }
      return Integer.parseInt(s);
    }
  }

  private static boolean showsSteps(String arg) {
    return arg.equals("-v")
        || arg.equals("--verbose")
        || arg.equals("-###")
        || arg.startsWith("-save-temps")
        || arg.startsWith("-time")
        || arg.equals("-wrapper")
        || arg.startsWith("-B")
        || arg.startsWith("-print")
        || arg.startsWith("-fuse-ld")
        || arg.startsWith("@");
  }

  /** Which of {@link #KNOWN_LINKERS} the linker binary {@code ld} is, if any. */
  static Optional<NvptxLdVersion> knownLinker(Path ld) throws IOException {
    if (!Files.isRegularFile(ld) || !KNOWN_LINKER_SIZES.contains(Files.size(ld))) {
      return Optional.empty();
    }
    return Optional.ofNullable(
        KNOWN_LINKERS.get(HexFormat.of().formatHex(Sha256Digest.of(Files.readAllBytes(ld)))));
  }
}
