package org.offlink.bridge.doctor;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.offlink.bridge.gcc.GccInstallation;
import org.offlink.bridge.gcc.GccVersion;
import org.offlink.bridge.gcc.UnsupportedGccException;
import org.offlink.bridge.nvptx.PtxasCheck;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.temp.TempFiles;
import org.offlink.bridge.tool.DebianPackages;
import org.offlink.bridge.tool.ExecutableSearch;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.bridge.tool.ResolvedTool;
import org.offlink.bridge.tool.ToolLocator;
import org.offlink.bridge.tool.ToolNotFoundException;

/**
 * The checks of {@code offlink doctor}: the host GCC and its configured offload targets, each
 * target's accel compiler and tools (nvptx-tools; llvm-mc/lld behind {@code accel/amdgcn-amdhsa/as}
 * and {@code ld}), the ptxas trap, the libgomp plugins, and the JVM with its start-up cache. A
 * target can link when its accel compiler and assembler/linker are present; the ptxas trap is a
 * warning because offlink disables PTX verification itself ({@link PtxasCheck}).
 */
public final class Doctor {
  public static final String HOST = "host gcc";
  private static final String HOST_GCC = "gcc-12";
  private static final Pattern CUDA_RELEASE = Pattern.compile("release (\\d+)");

  private final DoctorSettings settings;
  private final ToolLocator locator;
  private final List<DoctorCheck> checks = new ArrayList<>();
  private List<String> configuredTargets = List.of();

  /** A doctor for {@code settings}. */
  public Doctor(DoctorSettings settings) {
    this.settings = settings;
    this.locator = new ToolLocator(settings.environment(), settings.workingDirectory());
  }

  /** Runs every check. */
  public DoctorReport examine() throws IOException {
    Optional<GccInstallation> gcc = hostGcc();
    List<String> targets = new ArrayList<>();
    List<String> linkable = new ArrayList<>();
    if (gcc.isPresent()) {
      targets.addAll(configuredTargets);
      for (String name : configuredTargets) {
        if (target(gcc.get(), name)) {
          linkable.add(name);
        }
      }
    }
    jvm();
    return new DoctorReport(targets, linkable, checks);
  }

  private Optional<GccInstallation> hostGcc() throws IOException {
    ResolvedTool gcc;
    try {
      gcc = locator.find(HOST_GCC);
    } catch (ToolNotFoundException e) {
      checks.add(DoctorCheck.missing(HOST, e.getMessage(), DebianPackages.forTool(HOST_GCC)));
      return Optional.empty();
    }
    CommandResult r = run(List.of(gcc.path().toString(), "-v"));
    Optional<GccFacts> facts = GccFacts.parse(r.stderr() + r.stdout());
    if (facts.isEmpty()) {
      checks.add(
          DoctorCheck.missing(
              HOST, gcc.path() + " -v printed no 'gcc version' and 'Target:' lines", "gcc-12"));
      return Optional.empty();
    }
    GccInstallation install =
        new GccInstallation(facts.get().triplet(), GccVersion.parse(facts.get().version()));
    try {
      install.requireSomeTargetSupported();
    } catch (UnsupportedGccException e) {
      checks.add(DoctorCheck.missing(HOST, gcc.path() + ": " + e.getMessage(), "gcc-12"));
      return Optional.empty();
    }
    checks.add(
        DoctorCheck.ok(
            HOST,
            String.format(
                "%s %s at %s (target %s)",
                HOST_GCC, facts.get().version(), gcc.path(), facts.get().triplet())));
    configuredTargets = facts.get().offloadTargets();
    checks.add(
        DoctorCheck.info(
            "offload targets",
            configuredTargets.isEmpty()
                ? "GCC is configured for no offload target (no OFFLOAD_TARGET_NAMES in gcc -v)"
                : String.join(" ", configuredTargets) + " (OFFLOAD_TARGET_NAMES)"));
    return Optional.of(install);
  }

  /** Checks one target; true when it can link. */
  private boolean target(GccInstallation gcc, String name) throws IOException {
    Optional<OffloadTarget> known = OffloadTarget.byTriplet(name);
    if (known.isEmpty()) {
      checks.add(
          DoctorCheck.missing(name, "offlink does not implement offload target " + name, ""));
      return false;
    }
    OffloadTarget target = known.get();
    Optional<String> refusal = gcc.release().refusal(target);
    if (refusal.isPresent()) {
      checks.add(
          DoctorCheck.missing(
              name, "GCC " + gcc.major() + " is " + refusal.get(), target.debianPackage(12)));
      return false;
    }
    String pkg = target.debianPackage(gcc.major());
    boolean ok = found(name + " accel compiler", gcc.accelDriverName(target), pkg);
    Path accelDir = settings.under(gcc.debianAccelToolDirectory(target).toString());
    Path mkoffload = accelDir.resolve("mkoffload");
    checks.add(
        ExecutableSearch.isExecutable(mkoffload)
            ? DoctorCheck.ok(name + " stock mkoffload", mkoffload.toString())
            : new DoctorCheck(
                name + " stock mkoffload",
                DoctorCheck.Status.WARNING,
                mkoffload
                    + " is missing: stock GCC cannot link for "
                    + name
                    + " (offlink brings its own mkoffload)",
                pkg));
    if (target == OffloadTarget.NVPTX) {
      ok &= found("nvptx-none assembler", "nvptx-none-as", "nvptx-tools");
      ok &= found("nvptx-none linker", "nvptx-none-ld", "nvptx-tools");
      link(accelDir, "as", name);
      link(accelDir, "ld", name);
      ptxas(gcc);
    } else {
      ok &= accelTool(accelDir, "as", name + " assembler (llvm-mc)", "llvm-13");
      ok &= accelTool(accelDir, "ld", name + " linker (lld)", "lld-13");
    }
    plugin(gcc, target);
    return ok;
  }

  private boolean found(String area, String tool, String pkg) {
    try {
      checks.add(DoctorCheck.ok(area, tool + " at " + locator.find(tool).path()));
      return true;
    } catch (ToolNotFoundException e) {
      checks.add(DoctorCheck.missing(area, e.getMessage(), pkg));
      return false;
    }
  }

  private void link(Path accelDir, String tool, String target) {
    Path p = accelDir.resolve(tool);
    if (Files.exists(p)) {
      checks.add(DoctorCheck.info(target + " accel " + tool, p + " -> " + realPath(p)));
    }
  }

  private boolean accelTool(Path accelDir, String tool, String area, String pkg) {
    Path p = accelDir.resolve(tool);
    if (ExecutableSearch.isExecutable(p)) {
      checks.add(DoctorCheck.ok(area, p + " -> " + realPath(p)));
      return true;
    }
    String why = Files.isSymbolicLink(p) ? " is a dangling link" : " is missing";
    checks.add(DoctorCheck.missing(area, p + why, pkg));
    return false;
  }

  private static String realPath(Path p) {
    try {
      return p.toRealPath().toString();
    } catch (IOException e) {
      return "(unresolvable: " + e.getMessage() + ")";
    }
  }

  private void ptxas(GccInstallation gcc) throws IOException {
    String area = "ptxas on PATH";
    Optional<Path> ptxas = locator.findOnPath("ptxas");
    if (ptxas.isEmpty()) {
      checks.add(DoctorCheck.ok(area, "none (nvptx-none-as does not verify PTX; that is fine)"));
      return;
    }
    String arch = gcc.release().nvptx().defaultArch();
    String what = "GCC " + gcc.major() + "'s " + arch;
    Optional<String> trap;
    try (TempFiles temps =
        new TempFiles(
            settings
                .context()
                .withOutput(
                    settings.context().out(), new PrintStream(OutputStream.nullOutputStream())),
            false,
            false)) {
      trap =
          PtxasCheck.check(
              settings.environment(),
              settings.workingDirectory(),
              arch,
              gcc.major(),
              settings.runner(),
              temps);
    }
    if (trap.isEmpty()) {
      checks.add(DoctorCheck.ok(area, ptxas.get() + " accepts " + what + " PTX"));
      return;
    }
    Path dir = ptxas.get().getParent();
    checks.add(
        new DoctorCheck(
            area,
            DoctorCheck.Status.WARNING,
            String.format(
                "%sptxas at %s rejects %s PTX; stock GCC's nvptx links fail; offlink"
                    + " works around it (%s); to use stock GCC, remove %s from PATH",
                cudaRelease(ptxas.get()), ptxas.get(), what, PtxasCheck.NO_VERIFY, dir),
            ""));
  }

  private String cudaRelease(Path ptxas) throws IOException {
    CommandResult r = run(List.of(ptxas.toString(), "--version"));
    Matcher m = CUDA_RELEASE.matcher(r.stdout());
    return m.find() ? "CUDA " + m.group(1) + " " : "";
  }

  private void plugin(GccInstallation gcc, OffloadTarget target) {
    String word = target == OffloadTarget.NVPTX ? "nvptx" : "gcn";
    String pkg = target == OffloadTarget.NVPTX ? "libgomp-plugin-nvptx1" : "libgomp-plugin-amdgcn1";
    Path p = settings.under("/usr/lib/" + gcc.hostTriplet() + "/libgomp-plugin-" + word + ".so.1");
    checks.add(
        Files.exists(p)
            ? DoctorCheck.ok(target.triplet() + " libgomp plugin", p.toString())
            : new DoctorCheck(
                target.triplet() + " libgomp plugin",
                DoctorCheck.Status.WARNING,
                p + " is missing: programs link but run on the host only",
                pkg));
  }

  private void jvm() {
    JvmFacts jvm = settings.jvm();
    checks.add(DoctorCheck.info("jdk", "Java " + jvm.javaVersion() + " at " + jvm.javaHome()));
    checks.add(
        DoctorCheck.info(
            "start-up cache",
            jvm.startupCache().isEmpty()
                ? "none (run through bin/offlink to use the cache built at install time)"
                : jvm.startupCache()));
  }

  private CommandResult run(List<String> argv) throws IOException {
    return settings
        .runner()
        .run(
            Command.of(argv, settings.environment(), settings.workingDirectory())
                .asProbe()
                .withTimeout(java.time.Duration.ofSeconds(30)));
  }
}
