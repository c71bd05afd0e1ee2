package org.offlink.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.offlink.bridge.gcc.GccRelease;
import org.offlink.bridge.tool.OffloadTarget;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code offlink gcc-support}: which GCC majors and offload targets offlink builds device images
 * for, one {@code <major> <target> supported} or {@code <major> <target> refused: <why>} line per
 * pair, from {@link GccRelease}. The Debian package reads it (at build time, into {@code
 * lib/gcc-support}) to decide whose lto-wrapper and mkoffloads it diverts.
 */
@Command(
    name = "gcc-support",
    mixinStandardHelpOptions = true,
    description = {
      "List the GCC versions and offload targets offlink implements: one line per pair,",
      "'<major> <target> supported' or '<major> <target> refused: <why>'. A version not",
      "listed is refused for every target."
    })
final class GccSupportCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    for (int major : GccRelease.knownMajors()) {
      GccRelease release = GccRelease.of(major);
      for (OffloadTarget target : OffloadTarget.values()) {
        String verdict = release.refusal(target).map(why -> "refused: " + why).orElse("supported");
        out.println(major + " " + target.triplet() + " " + verdict);
      }
    }
    out.flush();
    return 0;
  }
}
