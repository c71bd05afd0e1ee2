package org.offlink.ltowrapper.report;

import java.util.List;
import java.util.Optional;
import org.offlink.bridge.process.Command;
import org.offlink.ltowrapper.report.proto.SubcommandKind;

/**
 * Tells what a program run was from its argv, the way a reader of {@code -v} output would: the
 * accel compiler by its {@code -accel-<target>-} name, the host steps by GCC's own flags ({@code
 * -fwpa}, {@code -fltrans}, {@code -xlto}), mkoffload by its install name.
 */
final class SubcommandKinds {
  private SubcommandKinds() {}

  /** The kind of a program lto-wrapper itself ran. */
  static SubcommandKind ofLinkStep(List<String> argv) {
    if (mkoffloadTarget(argv.get(0)).isPresent()) {
      return SubcommandKind.SUBCOMMAND_KIND_MKOFFLOAD;
    }
    for (String a : argv) {
      if (a.equals("-fwpa") || a.startsWith("-fwpa=")) {
        return SubcommandKind.SUBCOMMAND_KIND_WPA;
      }
      if (a.equals("-fltrans")) {
        return SubcommandKind.SUBCOMMAND_KIND_LTRANS;
      }
    }
    return argv.contains("-xlto")
        ? SubcommandKind.SUBCOMMAND_KIND_LTO
        : SubcommandKind.SUBCOMMAND_KIND_OTHER;
  }

  /** The kind of a program an in-process mkoffload ran; {@code collectGcc} is the host driver. */
  static SubcommandKind ofMkoffloadStep(Command command, String collectGcc) {
    if (command.captureOnly()) {
      return SubcommandKind.SUBCOMMAND_KIND_PROBE;
    }
    String program = command.program();
    if (baseName(program).contains("-accel-")) {
      return SubcommandKind.SUBCOMMAND_KIND_ACCEL_COMPILE;
    }
    return program.equals(collectGcc)
        ? SubcommandKind.SUBCOMMAND_KIND_HOST_COMPILE
        : SubcommandKind.SUBCOMMAND_KIND_OTHER;
  }

  /** The target of {@code .../accel/<target>/mkoffload}, if {@code program} is spelled so. */
  static Optional<String> mkoffloadTarget(String program) {
    String[] parts = program.split("/", -1);
    int n = parts.length;
    if (n >= 3 && parts[n - 1].equals("mkoffload") && parts[n - 3].equals("accel")) {
      return Optional.of(parts[n - 2]);
    }
    return Optional.empty();
  }

  private static String baseName(String program) {
    return program.substring(program.lastIndexOf('/') + 1);
  }
}
