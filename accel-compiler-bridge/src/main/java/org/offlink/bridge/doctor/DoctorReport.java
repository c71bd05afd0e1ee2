package org.offlink.bridge.doctor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * All findings of {@code offlink doctor}, the offload targets GCC is configured for, and which of
 * them can link.
 *
 * @param targets the configured targets ({@code OFFLOAD_TARGET_NAMES})
 * @param linkable the targets whose accel compiler and tools are all present
 * @param checks the findings in the order they were made
 */
public record DoctorReport(List<String> targets, List<String> linkable, List<DoctorCheck> checks) {
  /** Copies the lists. */
  public DoctorReport {
    targets = List.copyOf(targets);
    linkable = List.copyOf(linkable);
    checks = List.copyOf(checks);
  }

  /** Whether a host GCC was found and every configured target can link (warnings allowed). */
  public boolean healthy() {
    boolean hostOk =
        checks.stream()
            .noneMatch(
                c -> c.area().equals(Doctor.HOST) && c.status() == DoctorCheck.Status.MISSING);
    return hostOk && !targets.isEmpty() && linkable.containsAll(targets);
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("healthy", healthy());
    m.put("targets", targets);
    m.put("linkable", linkable);
    m.put("checks", checks.stream().map(DoctorCheck::toJson).toList());
    return m;
  }
}
