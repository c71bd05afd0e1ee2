package org.offlink.bridge.doctor;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One finding of {@code offlink doctor}.
 *
 * @param area what was checked ({@code host gcc}, {@code nvptx-none accel compiler}, ...)
 * @param status the verdict
 * @param detail what was found, or what is missing and where it was looked for
 * @param debianPackage the package that provides the missing piece, or ""
 */
public record DoctorCheck(String area, Status status, String detail, String debianPackage) {
  /** A verdict. */
  public enum Status {
    /** Present and usable. */
    OK,
    /** Usable, with a caveat the detail explains. */
    WARNING,
    /** Absent or unusable. */
    MISSING,
    /** Not a check: a fact shown for information. */
    INFO
  }

  /** Checks the fields. */
  public DoctorCheck {
    Objects.requireNonNull(area, "area");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(debianPackage, "debianPackage");
  }

  public static DoctorCheck ok(String area, String detail) {
    return new DoctorCheck(area, Status.OK, detail, "");
  }

  public static DoctorCheck info(String area, String detail) {
    return new DoctorCheck(area, Status.INFO, detail, "");
  }

  public static DoctorCheck missing(String area, String detail, String pkg) {
    return new DoctorCheck(area, Status.MISSING, detail, pkg);
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("area", area);
    m.put("status", status.name().toLowerCase());
    m.put("detail", detail);
    if (!debianPackage.isEmpty()) {
      m.put("package", debianPackage);
    }
    return m;
  }
}
