package org.offlink.bridge.gcc;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.bridge.tool.OffloadTarget;

/**
 * Facts about the host GCC whose link offlink serves: host triplet ({@code x86_64-linux-gnu}) and
 * version. What each major does differently is {@link GccRelease}; {@link
 * #requireSupported(OffloadTarget)} refuses a (version, target) pair offlink does not implement,
 * with the reason.
 */
public record GccInstallation(String hostTriplet, GccVersion version) {
  /** Checks the fields. */
  public GccInstallation {
    Objects.requireNonNull(hostTriplet, "hostTriplet");
    Objects.requireNonNull(version, "version");
    if (hostTriplet.isEmpty() || hostTriplet.contains("/")) {
      throw new IllegalArgumentException("bad host triplet '" + hostTriplet + "'");
    }
  }

  /** Reads the facts by running {@code <COLLECT_GCC> -dumpmachine} and {@code -dumpfullversion}. */
  public static GccInstallation detect(
      Map<String, String> environment, Path workingDirectory, ProcessRunner runner)
      throws IOException {
    String collectGcc = environment.get("COLLECT_GCC");
    if (collectGcc == null) {
      throw new UnsupportedGccException("COLLECT_GCC must be set.");
    }
    String machine = ask(runner, collectGcc, "-dumpmachine", environment, workingDirectory);
    String version = ask(runner, collectGcc, "-dumpfullversion", environment, workingDirectory);
    return new GccInstallation(machine, GccVersion.parse(version));
  }

  private static String ask(
      ProcessRunner runner, String gcc, String option, Map<String, String> env, Path cwd)
      throws IOException {
    CommandResult r = runner.runChecked(Command.of(List.of(gcc, option), env, cwd).asProbe());
    return r.stdout().trim();
  }

  /**
   * Derives the facts from a path inside the GCC library directory, e.g. mkoffload's own {@code
   * /usr/lib/gcc/x86_64-linux-gnu/12/accel/nvptx-none/mkoffload}: the last {@code
   * lib/gcc/<triplet>/<version>} or {@code libexec/gcc/<triplet>/<version>} run of components,
   * where the version is digits with optional {@code .digits} parts. A plain component scan: this
   * runs on every mkoffload's path to the accel compiler, where a regex would be compiled and run
   * by the interpreter.
   */
  public static Optional<GccInstallation> fromLibraryPath(Path path) {
    String[] parts = path.normalize().toString().split("/", -1);
    for (int i = parts.length - 4; i >= 0; i--) {
      boolean libDir = parts[i].equals("lib") || parts[i].equals("libexec");
      if (libDir && parts[i + 1].equals("gcc") && !parts[i + 2].isEmpty()) {
        OptionalInt major = versionMajor(parts[i + 3]);
        if (major.isPresent()) {
          return Optional.of(
              new GccInstallation(parts[i + 2], new GccVersion(major.getAsInt(), 0, 0)));
        }
      }
    }
    return Optional.empty();
  }

  /**
   * The installation named by the first GCC library directory on a {@code COMPILER_PATH} value (the
   * driver puts its own libexec directory there, after any {@code -B} folders).
   */
  public static Optional<GccInstallation> fromCompilerPath(String compilerPath) {
    for (String dir : compilerPath.split(":")) {
      if (!dir.isEmpty()) {
        Optional<GccInstallation> found = fromLibraryPath(Path.of(dir));
        if (found.isPresent()) {
          return found;
        }
      }
    }
    return Optional.empty();
  }

  /** The major of a {@code 12} or {@code 12.2.0} directory name; empty for anything else. */
  private static OptionalInt versionMajor(String name) {
    int dot = name.indexOf('.');
    String major = dot < 0 ? name : name.substring(0, dot);
    if (!allDigits(major) || major.length() > 9) {
      return OptionalInt.empty();
    }
    if (dot >= 0) {
      for (String part : name.substring(dot + 1).split("\\.", -1)) {
        if (!allDigits(part)) {
          return OptionalInt.empty();
        }
      }
    }
    return OptionalInt.of(Integer.parseInt(major));
  }

  private static boolean allDigits(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  /**
   * The installation named by a tool's environment, without running anything: from {@code
   * COLLECT_LTO_WRAPPER} (resolved against the working directory) when it (or what it links to)
   * lies in a GCC library directory, else from the first such directory on {@code COMPILER_PATH}
   * (the driver puts its own there); empty when neither says.
   */
  public static Optional<GccInstallation> fromEnvironment(
      Map<String, String> environment, Path workingDirectory) {
    String wrapper = environment.get("COLLECT_LTO_WRAPPER");
    if (wrapper != null) {
      Path p = workingDirectory.resolve(wrapper);
      Optional<GccInstallation> direct = fromLibraryPath(p);
      if (direct.isPresent()) {
        return direct;
      }
      try {
        Optional<GccInstallation> linked = fromLibraryPath(p.toRealPath());
        if (linked.isPresent()) {
          return linked;
        }
      } catch (IOException e) {
        // not a link into a GCC library directory: COMPILER_PATH decides
      }
    }
    return fromCompilerPath(environment.getOrDefault("COMPILER_PATH", ""));
  }

  /** The major version. */
  public int major() {
    return version.major();
  }

  /** The accel driver name mkoffload has compiled in (GCC_INSTALL_NAME). */
  public String accelDriverName(OffloadTarget target) {
    return target.accelDriverName(hostTriplet, major());
  }

  /** Debian's accel library directory, {@code /usr/lib/gcc/<triplet>/<major>/accel/<target>}. */
  public Path debianAccelLibraryDirectory(OffloadTarget target) {
    return Path.of(
        "/usr/lib/gcc", hostTriplet, Integer.toString(major()), "accel", target.triplet());
  }

  /**
   * Where Debian installs this major's mkoffload and accel tool links: {@code
   * <libexec>/gcc/<triplet>/<major>/accel/<target>}, {@code /usr/lib} for 12, {@code /usr/libexec}
   * for 13+ (delta §8.2).
   */
  public Path debianAccelToolDirectory(OffloadTarget target) {
    return Path.of(
        release().libexecPrefix(),
        "gcc",
        hostTriplet,
        Integer.toString(major()),
        "accel",
        target.triplet());
  }

  /** The per-version behaviour of this major. */
  public GccRelease release() {
    return GccRelease.of(major());
  }

  /** Throws unless offlink builds images for {@code target} with this GCC. */
  public void requireSupported(OffloadTarget target) throws UnsupportedGccException {
    String why = unsupportedReason(version, target);
    if (why != null) {
      throw new UnsupportedGccException(why);
    }
  }

  /** Throws unless offlink builds images for at least one target with this GCC. */
  public void requireSomeTargetSupported() throws UnsupportedGccException {
    if (!release().anyTargetSupported()) {
      requireSupported(OffloadTarget.NVPTX);
    }
  }

  /** Where the refusals point: the README table of what each GCC version has verified. */
  static final String SUPPORTED_TOOLCHAINS = "see \"Supported toolchains\" in offlink's README";

  /**
   * The refusal text for a detected version and target, or null when it is supported. It names the
   * full detected version, what differs and where the supported versions are listed.
   */
  static String unsupportedReason(GccVersion detected, OffloadTarget target) {
    return GccRelease.of(detected.major())
        .refusal(target)
        .map(
            what ->
                "GCC "
                    + detected.major()
                    + " is "
                    + what
                    + "; detected GCC "
                    + detected
                    + ", "
                    + SUPPORTED_TOOLCHAINS)
        .orElse(null);
  }
}
