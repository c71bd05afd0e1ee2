package org.offlink.cli;

import java.io.PrintWriter;
import org.offlink.bridge.doctor.DoctorCheck;
import org.offlink.bridge.doctor.DoctorReport;

/** The text form of {@code offlink doctor}. */
final class DoctorText {
  private DoctorText() {}

  static void print(DoctorReport report, PrintWriter out) {
    for (DoctorCheck c : report.checks()) {
      String tag = "[" + c.status().name().toLowerCase() + "]";
      out.printf("%-10s %s: %s%n", tag, c.area(), c.detail());
      if (!c.debianPackage().isEmpty() && c.status() != DoctorCheck.Status.OK) {
        out.printf("%-10s   install the Debian package %s%n", "", c.debianPackage());
      }
    }
    long warnings =
        report.checks().stream().filter(c -> c.status() == DoctorCheck.Status.WARNING).count();
    if (report.healthy()) {
      out.printf(
          "result: every configured offload target can link with offlink (%s)%s%n",
          String.join(", ", report.linkable()),
          warnings == 0 ? "" : "; " + warnings + " warning" + (warnings == 1 ? "" : "s"));
    } else {
      out.printf(
          "result: NOT ready: configured %s, can link %s%n",
          report.targets().isEmpty() ? "(none)" : String.join(", ", report.targets()),
          report.linkable().isEmpty() ? "(none)" : String.join(", ", report.linkable()));
    }
  }
}
