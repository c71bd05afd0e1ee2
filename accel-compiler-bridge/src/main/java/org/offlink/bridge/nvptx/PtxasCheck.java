package org.offlink.bridge.nvptx;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.bridge.temp.TempFiles;
import org.offlink.bridge.tool.ExecutableSearch;
import org.offlink.runtime.NamedFiles;

/**
 * Detects the ptxas trap: nvptx-tools' {@code nvptx-none-as} verifies PTX with whatever {@code
 * ptxas} is on PATH, and CUDA 12/13 ptxas rejects the {@code sm_30}/{@code sm_35} targets GCC 12
 * emits, so the stock link fails. When a ptxas on the child's PATH fails a tiny probe for the
 * target architecture, verification is switched off with {@code -Wa,--no-verify} (an option of
 * nvptx-none-as; the PTX bytes are unchanged, Debian's GCC 12 normally runs without ptxas anyway)
 * and one warning says so. {@code OFFLINK_PTXAS=keep} keeps verification.
 */
public final class PtxasCheck {
  /** The accel driver option added when the trap is detected. */
  public static final String NO_VERIFY = "-Wa,--no-verify";

  private PtxasCheck() {}

  /**
   * Returns the warning text when verification must be disabled, empty when ptxas is absent, works
   * for {@code arch}, or the user asked to keep it.
   */
  public static Optional<String> check(
      Map<String, String> env,
      Path cwd,
      String arch,
      int gccMajor,
      ProcessRunner runner,
      TempFiles temps)
      throws IOException {
    if ("keep".equals(env.get("OFFLINK_PTXAS"))) {
      return Optional.empty();
    }
    Optional<Path> ptxas = ExecutableSearch.onPath("ptxas", env.getOrDefault("PATH", ""), cwd);
    if (ptxas.isEmpty()) {
      return Optional.empty();
    }
    Path probe = temps.scratch(".ptx");
    NamedFiles.write(temps.scope(), probe, probeText(arch).getBytes(StandardCharsets.US_ASCII));
    List<String> argv =
        List.of(
            ptxas.get().toString(),
            "-c",
            "-o",
            "/dev/null",
            probe.toString(),
            "--gpu-name",
            arch,
            "-O0");
    CommandResult r = runner.run(Command.of(argv, env, cwd).asProbe());
    if (r.succeeded()) {
      return Optional.empty();
    }
    return Optional.of(
        ptxas.get()
            + " rejects the "
            + arch
            + " PTX that GCC "
            + gccMajor
            + " emits, so PTX verification by nvptx-none-as is disabled ("
            + NO_VERIFY
            + "); set OFFLINK_PTXAS=keep to keep it, or put a ptxas that supports "
            + arch
            + " (CUDA < 12) first on PATH");
  }

  /** The architecture the accel compiler targets: the last {@code -march=}/{@code -misa=}. */
  public static String targetArch(List<String> args) {
    return targetArch(args, "sm_30");
  }

  /**
   * The architecture the accel compiler targets: the last {@code -march=}/{@code -misa=}, else the
   * accel compiler's default {@code defaultArch} (GCC 12-14 sm_30, 15+ sm_52).
   */
  public static String targetArch(List<String> args, String defaultArch) {
    String arch = defaultArch;
    for (String a : args) {
      if (a.startsWith("-march=sm_")) {
        arch = a.substring("-march=".length());
      } else if (a.startsWith("-misa=sm_")) {
        arch = a.substring("-misa=".length());
      }
    }
    return arch;
  }

  private static String probeText(String arch) {
    return ".version 3.1\n.target " + arch + "\n.address_size 64\n";
  }
}
