package org.offlink.it;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The offload targets one build links for, plus the GCN architecture when GCN is among them. Turns
 * into GCC driver options: {@code -foffload=<t1>,<t2>} and {@code
 * -foffload-options=amdgcn-amdhsa=-march=<arch>}.
 */
record TargetSet(List<OffloadTarget> targets, Optional<String> gcnArch) {
  /** nvptx only. */
  static final TargetSet NVPTX = new TargetSet(List.of(OffloadTarget.NVPTX), Optional.empty());

  /** Checks that a GCN arch is given exactly when GCN is a target. */
  TargetSet {
    targets = List.copyOf(targets);
    Objects.requireNonNull(gcnArch, "gcnArch");
    if (targets.isEmpty()) {
      throw new IllegalArgumentException("no offload target");
    }
    if (targets.contains(OffloadTarget.GCN) != gcnArch.isPresent()) {
      throw new IllegalArgumentException("a GCN arch goes with the GCN target only: " + targets);
    }
  }

  /** GCN only, for {@code arch} (fiji, gfx900, gfx906, gfx908). */
  static TargetSet gcn(String arch) {
    return new TargetSet(List.of(OffloadTarget.GCN), Optional.of(arch));
  }

  /** nvptx and GCN ({@code arch}) in one link. */
  static TargetSet both(String arch) {
    return new TargetSet(List.of(OffloadTarget.NVPTX, OffloadTarget.GCN), Optional.of(arch));
  }

  /** The driver options selecting these targets (link time). */
  List<String> driverOptions() {
    List<String> options = new ArrayList<>();
    options.add(
        "-foffload="
            + targets.stream().map(OffloadTarget::triple).collect(Collectors.joining(",")));
    gcnArch.ifPresent(
        arch -> options.add("-foffload-options=" + OffloadTarget.GCN.triple() + "=-march=" + arch));
    return options;
  }

  /** A short label for test names and directories, e.g. {@code nvptx+gcn-gfx906}. */
  String label() {
    return targets.stream()
        .map(t -> t == OffloadTarget.GCN ? "gcn-" + gcnArch.orElseThrow() : "nvptx")
        .collect(Collectors.joining("+"));
  }

  @Override
  public String toString() {
    return label();
  }
}
