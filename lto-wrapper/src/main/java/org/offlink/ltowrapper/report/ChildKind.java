package org.offlink.ltowrapper.report;

import java.util.Objects;
import java.util.Optional;
import org.offlink.bridge.process.Command;
import org.offlink.ltowrapper.report.proto.SubcommandKind;

/**
 * What a program lto-wrapper runs is, as the step that runs it knows: the host LTO steps (WPA,
 * LTRANS, a whole-program LTO compile) or one target's mkoffload. The link report records it as
 * given; nothing is guessed from the command line.
 *
 * @param kind the report's kind
 * @param target the offload target of a mkoffload run
 */
public record ChildKind(SubcommandKind kind, Optional<String> target) {
  /** Checks the fields. */
  public ChildKind {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(target, "target");
  }

  /** The whole-program analysis of a partitioned link ({@code -fwpa}). */
  public static ChildKind wpa() {
    return new ChildKind(SubcommandKind.SUBCOMMAND_KIND_WPA, Optional.empty());
  }

  /** One partition's LTRANS compile ({@code -fltrans}). */
  public static ChildKind ltrans() {
    return new ChildKind(SubcommandKind.SUBCOMMAND_KIND_LTRANS, Optional.empty());
  }

  /** An unpartitioned LTO compile ({@code -xlto}, no WPA). */
  public static ChildKind lto() {
    return new ChildKind(SubcommandKind.SUBCOMMAND_KIND_LTO, Optional.empty());
  }

  /** {@code target}'s mkoffload. */
  public static ChildKind mkoffload(String target) {
    return new ChildKind(SubcommandKind.SUBCOMMAND_KIND_MKOFFLOAD, Optional.of(target));
  }

  /** The kind of a program an in-process mkoffload ran, from the role it gave the command. */
  static SubcommandKind ofMkoffloadStep(Command command) {
    return switch (command.role()) {
      case PROBE -> SubcommandKind.SUBCOMMAND_KIND_PROBE;
      case ACCEL_COMPILER, ACCEL_COMPILER_HELD -> SubcommandKind.SUBCOMMAND_KIND_ACCEL_COMPILE;
      case HOST_COMPILER -> SubcommandKind.SUBCOMMAND_KIND_HOST_COMPILE;
      case OTHER -> SubcommandKind.SUBCOMMAND_KIND_OTHER;
    };
  }
}
