package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.util.JsonFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.mkoffload.Mkoffload;
import org.offlink.ltowrapper.report.proto.Execution;
import org.offlink.ltowrapper.report.proto.LinkReport;
import org.offlink.ltowrapper.report.proto.Target;
import org.offlink.ltowrapper.report.proto.TargetStatus;

/**
 * {@code scripts/install.sh --replace-gcc} on the machine's real GCC 12, without changing it: one
 * script runs under {@code unshare --mount --propagation private} with overlayfs over GCC's libexec
 * folder and {@code /var/lib/dpkg} (upper layers in the test's folder), installs with {@code
 * --replace-gcc}, links an OpenMP target program for nvptx and for gcn with a plain {@code gcc-12
 * -v} (no {@code -B}), runs each under the registration spy, then uninstalls. The mounts die with
 * the namespace. Asserts that GCC's own lto-wrapper and mkoffload paths ran offlink, that each
 * program registered its image, and that {@code --uninstall} gave back GCC's files byte for byte
 * with no diversion left. Skipped where it cannot run: not root, no mount namespace or overlayfs,
 * no GCC 12 offload compilers.
 */
class ReplaceGccIT {
  private static final Path GCC_LIBEXEC = Path.of("/usr/lib/gcc/x86_64-linux-gnu/12");
  private static final List<String> REPLACED =
      List.of("lto-wrapper", "accel/nvptx-none/mkoffload", "accel/amdgcn-amdhsa/mkoffload");
  private static final List<String> REQUIRED_TOOLS =
      List.of(
          "/usr/bin/gcc-12",
          "/usr/bin/x86_64-linux-gnu-accel-nvptx-none-gcc-12",
          "/usr/bin/x86_64-linux-gnu-accel-amdgcn-amdhsa-gcc-12",
          "/usr/bin/dpkg-divert",
          "/usr/bin/unshare",
          "/usr/bin/mount");

  /** No /usr/local/bin: the CUDA 13 ptxas there rejects GCC 12's PTX and breaks nvptx links. */
  private static final String PATH = "/usr/sbin:/usr/bin:/sbin:/bin";

  private static final Duration LIMIT = Duration.ofMinutes(10);
  private static final String DIVERTED = ".gcc-offlink-diverted";

  private static final String PROGRAM =
      "int main(void) {\n  int s = 0;\n#pragma omp target map(tofrom: s)\n  s = 7;\n"
          + "  return s == 7 ? 0 : 1;\n}\n";

  /**
   * Runs as root in a private mount namespace; argv: REPO WORK SPY. Everything it writes lands in
   * WORK (logs, snapshots of GCC's files, the prefix) or in the overlays' upper layers there.
   */
  private static final String SCRIPT =
      """
      #!/usr/bin/env bash
      set -euo pipefail
      trap 'echo "replace-gcc.sh: line $LINENO: exit status $?" >&2' ERR
      repo=$1 work=$2 spy=$3
      gcc_dir=/usr/lib/gcc/x86_64-linux-gnu/12
      replaced=(lto-wrapper accel/nvptx-none/mkoffload accel/amdgcn-amdhsa/mkoffload)
      cd "$work"
      step() { printf '== %s\\n' "$*"; }
      overlay() { # DIR NAME: a throw-away writable layer over DIR
        mkdir -p "overlay/$2/upper" "overlay/$2/work"
        mount -t overlay overlay -o "lowerdir=$1,upperdir=$work/overlay/$2/upper,workdir=$work/overlay/$2/work" "$1"
      }
      snapshot() { # FOLDER: GCC's replaced files as they are now, links kept as links
        mkdir -p "$1"
        (cd "$gcc_dir" && cp -a --parents "${replaced[@]}" "$work/$1/")
      }
      link() { # NAME -foffload=...: a plain gcc link, then the program under the registration spy
        step "link $1"
        OFFLINK_REPORT=$work/$1.report.json gcc-12 -v -fopenmp "$2" p.c -o "$1" 2>&1 | tee "$1.log"
        step "run $1"
        LD_PRELOAD=$spy OFFLINK_SPY_OUT=$work/$1.spy "./$1"
      }

      step "overlays"
      overlay "$gcc_dir" gcc
      overlay /var/lib/dpkg dpkg
      snapshot before
      step "install --replace-gcc"
      bash "$repo/scripts/install.sh" --prefix "$work/prefix" --replace-gcc
      dpkg-divert --list > diversions-replaced.txt
      lto_wrapper=$(gcc-12 -print-prog-name=lto-wrapper)
      readlink -f "$lto_wrapper" > lto-wrapper-resolved.txt
      "$lto_wrapper" --version > lto-wrapper-version.txt 2>&1 || true # stock GCC's refuses it
      link nvptx -foffload=nvptx-none
      link gcn -foffload=amdgcn-amdhsa=-march=gfx906
      step "uninstall"
      bash "$repo/scripts/install.sh" --prefix "$work/prefix" --uninstall
      snapshot after
      find "$gcc_dir" -name '*.gcc-offlink-diverted' > leftovers.txt
      dpkg-divert --list > diversions-uninstalled.txt
      step "done"
      """;

  @TempDir Path work;

  private record Run(int status, String output) {}

  @Test
  void plainGccLinksThroughOfflinkAndUninstallRestoresGcc() throws Exception {
    assumeRootWithOffloadCompilers();
    assumeOverlayMountWorks();
    assertGccNotReplacedAlready();
    Path spy = Toolchain.create(Files.createDirectories(work.resolve("spy"))).spyLibrary();
    Run run = runInNamespace(spy);
    assertEquals(0, run.status(), "replace-gcc script failed:\n" + run.output());
    assertReplaced(run);
    assertLinkedThroughOfflink(run, OffloadTarget.NVPTX, "nvptx");
    assertLinkedThroughOfflink(run, OffloadTarget.GCN, "gcn");
    assertUninstalled(run);
    assertRealSystemUntouched(run);
  }

  private static void assumeRootWithOffloadCompilers() throws IOException {
    int uid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    assumeTrue(uid == 0, "needs root (mount namespace, overlayfs, dpkg-divert); uid is " + uid);
    List<Path> needed = new ArrayList<>();
    REQUIRED_TOOLS.forEach(t -> needed.add(Path.of(t)));
    REPLACED.forEach(f -> needed.add(GCC_LIBEXEC.resolve(f)));
    for (Path p : needed) {
      assumeTrue(Files.isExecutable(p), p + " is missing: GCC 12 offload toolchain not installed");
    }
    assumeTrue(Files.isDirectory(Path.of("/var/lib/dpkg")), "no dpkg database");
  }

  /** Cheap probe: an overlay over GCC's folder, mounted on a scratch folder in a new namespace. */
  private void assumeOverlayMountWorks() throws Exception {
    Path probe = work.resolve("probe");
    for (String d : List.of("upper", "work", "merged")) {
      Files.createDirectories(probe.resolve(d));
    }
    String options =
        "lowerdir=%s,upperdir=%s,workdir=%s"
            .formatted(GCC_LIBEXEC, probe.resolve("upper"), probe.resolve("work"));
    String merged = probe.resolve("merged").toString();
    List<String> mount = inNamespace("mount", "-t", "overlay", "overlay", "-o", options, merged);
    Run r = run(mount, probe.resolve("probe.log"), Duration.ofSeconds(30));
    assumeTrue(r.status() == 0, "unshare --mount + overlay mount not permitted:\n" + r.output());
  }

  /** A real install left in place would make "GCC's originals" offlink's links: say so plainly. */
  private static void assertGccNotReplacedAlready() {
    for (String f : REPLACED) {
      Path p = GCC_LIBEXEC.resolve(f);
      assertFalse(Files.isSymbolicLink(p), p + " is a link: offlink replaced GCC for real here?");
      assertFalse(Files.exists(Path.of(p + DIVERTED), LinkOption.NOFOLLOW_LINKS), p + DIVERTED);
    }
  }

  private Run runInNamespace(Path spy) throws Exception {
    Path script = work.resolve("replace-gcc.sh");
    Files.writeString(script, SCRIPT);
    Files.writeString(work.resolve("p.c"), PROGRAM);
    String repo = System.getProperty("offlink.repo");
    return run(
        inNamespace("bash", script.toString(), repo, work.toString(), spy.toString()),
        work.resolve("replace-gcc.log"),
        LIMIT);
  }

  /** {@code argv} run in a new mount namespace whose mounts are private to it. */
  private static List<String> inNamespace(String... argv) {
    List<String> all = new ArrayList<>(List.of("unshare", "--mount", "--propagation", "private"));
    all.addAll(List.of(argv));
    return all;
  }

  /** Runs {@code argv} in {@code work} with a fixed environment; both streams go to {@code log}. */
  private Run run(List<String> argv, Path log, Duration limit) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(argv).directory(work.toFile()).redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    env.clear();
    env.putAll(
        Map.of("PATH", PATH, "LC_ALL", "C", "HOME", work.toString(), "TMPDIR", tmp().toString()));
    pb.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    pb.redirectOutput(log.toFile());
    Process p = pb.start();
    if (!p.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly().waitFor();
      fail("timed out after " + limit + ": " + argv + "\n" + Files.readString(log));
    }
    return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
  }

  private Path tmp() throws IOException {
    return Files.createDirectories(work.resolve("tmp"));
  }

  /** GCC's paths led to offlink's launchers, and dpkg recorded one diversion per replaced file. */
  private void assertReplaced(Run run) throws IOException {
    Path prefix = work.resolve("prefix");
    assertEquals(
        prefix.resolve("libexec/offlink/lto-wrapper").toString(),
        read("lto-wrapper-resolved.txt").strip(),
        "gcc-12 -print-prog-name=lto-wrapper, resolved\n" + run.output());
    assertTrue(
        read("lto-wrapper-version.txt").startsWith("offlink lto-wrapper "),
        "GCC's lto-wrapper --version\n" + run.output());
    String diversions = read("diversions-replaced.txt");
    for (String f : REPLACED) {
      Path gccFile = GCC_LIBEXEC.resolve(f);
      assertTrue(
          diversions.contains("local diversion of " + gccFile + " to " + gccFile + DIVERTED),
          f + " not diverted:\n" + diversions + "\n" + run.output());
    }
  }

  /**
   * The -v output shows GCC's own lto-wrapper and mkoffload paths run (no -B), and that they were
   * offlink's (each prints its version line under -v, as collect2 does), without stock GCC 12's
   * DT_TEXTREL warning (offlink's PIE offload table is position-independent); the link report,
   * which only offlink writes, says GCC's mkoffload path was offlink's own, run in-process; the
   * program runs (host fallback) and registers one image for the target.
   */
  private void assertLinkedThroughOfflink(Run run, OffloadTarget target, String name)
      throws Exception {
    String log = read(name + ".log");
    String context = "gcc-12 -v link for " + target.triple() + ":\n" + run.output();
    assertTrue(log.contains(GCC_LIBEXEC + "/lto-wrapper -fresolution="), context);
    Pattern mkoffload =
        Pattern.compile(
            "^"
                + Pattern.quote(GCC_LIBEXEC.toString())
                + "/+accel/"
                + target.triple()
                + "/mkoffload ",
            Pattern.MULTILINE);
    assertTrue(mkoffload.matcher(log).find(), context);
    assertTrue(log.contains("\nofflink lto-wrapper 0.1.0 (GCC 12 to 16 compatible)\n"), context);
    String mkoffloadVersion =
        Mkoffload.version(
            org.offlink.bridge.tool.OffloadTarget.byTriplet(target.triple()).orElseThrow());
    assertTrue(
        mkoffloadVersion.startsWith("offlink mkoffload 0.1.0 (GCC 12 to "), mkoffloadVersion);
    assertTrue(log.contains("\n" + mkoffloadVersion + "\n"), context);
    assertFalse(log.contains("creating DT_TEXTREL in a PIE"), "stock GCC's table? " + context);
    assertReportedInProcess(name, target, context);
    assertRegistered(name, target, context);
  }

  private void assertReportedInProcess(String name, OffloadTarget target, String context)
      throws IOException {
    LinkReport.Builder b = LinkReport.newBuilder();
    JsonFormat.parser().merge(read(name + ".report.json"), b);
    LinkReport report = b.build();
    assertTrue(report.getOfflinkVersion().startsWith("offlink lto-wrapper"), context);
    assertEquals(GCC_LIBEXEC.resolve("lto-wrapper").toString(), report.getArgv(0), context);
    assertEquals(1, report.getTargetsCount(), report + context);
    Target t = report.getTargets(0);
    assertEquals(target.triple(), t.getName(), context);
    assertTrue(t.getMkoffload().startsWith(GCC_LIBEXEC + "/"), t + context);
    // In-process only when GCC's accel/<target>/mkoffload resolves to offlink's launcher.
    assertEquals(Execution.EXECUTION_IN_PROCESS, t.getExecution(), t + context);
    assertEquals(TargetStatus.TARGET_STATUS_OK, t.getStatus(), t + context);
  }

  private void assertRegistered(String name, OffloadTarget target, String context)
      throws IOException {
    RegistrationDump dump = RegistrationDump.parse(read(name + ".spy"));
    String what = name + " registrations:\n" + dump.text() + "\n" + context;
    assertEquals(1, dump.registered().size(), what);
    Registration r = dump.registered().get(0);
    assertEquals(target.deviceType(), r.deviceType(), what);
    assertEquals(target.registerVersion(), r.version(), what);
    assertEquals(name, r.module(), what);
    assertTrue(r.hostFuncs() >= 1, what);
    assertEquals(r.hostFuncs(), r.deviceFuncs().orElse(-1), what);
    if (target == OffloadTarget.GCN) {
      assertEquals(0x2f, r.gcnElfFlags().orElse(-1) & 0xff, "gfx906 (EF_AMDGPU_MACH) " + what);
    }
  }

  /** Inside the namespace after --uninstall: GCC's files as before, no diversion, no prefix. */
  private void assertUninstalled(Run run) throws IOException {
    for (String f : REPLACED) {
      assertSameFile(work.resolve("before").resolve(f), work.resolve("after").resolve(f), run);
    }
    assertEquals("", read("leftovers.txt"), run.output());
    assertFalse(read("diversions-uninstalled.txt").contains(DIVERTED), run.output());
    assertFalse(Files.exists(work.resolve("prefix/libexec/offlink")), run.output());
  }

  /**
   * After the namespace: the real GCC files are the originals (not links), dpkg's real database
   * names no offlink diversion, the writes went to the overlay, and the mounts are gone.
   */
  private void assertRealSystemUntouched(Run run) throws IOException {
    for (String f : REPLACED) {
      assertSameFile(work.resolve("before").resolve(f), GCC_LIBEXEC.resolve(f), run);
    }
    assertFalse(Files.readString(Path.of("/var/lib/dpkg/diversions")).contains(DIVERTED));
    assertTrue(
        Files.exists(work.resolve("overlay/dpkg/upper/diversions")),
        "dpkg-divert wrote through the overlay\n" + run.output());
    assertFalse(
        Files.readString(Path.of("/proc/self/mountinfo")).contains(work.toString()),
        "the overlays died with the namespace");
  }

  private static void assertSameFile(Path expected, Path actual, Run run) throws IOException {
    String what = actual + " vs the original " + expected + "\n" + run.output();
    assertFalse(Files.isSymbolicLink(expected), "snapshot of a link: " + what);
    assertFalse(Files.isSymbolicLink(actual), what);
    assertEquals(-1L, Files.mismatch(expected, actual), "bytes differ: " + what);
    assertEquals(
        PosixFilePermissions.toString(Files.getPosixFilePermissions(expected)),
        PosixFilePermissions.toString(Files.getPosixFilePermissions(actual)),
        "mode: " + what);
  }

  private String read(String name) throws IOException {
    return Files.readString(work.resolve(name), StandardCharsets.UTF_8);
  }
}
