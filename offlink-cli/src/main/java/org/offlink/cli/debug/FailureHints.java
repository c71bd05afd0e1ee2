package org.offlink.cli.debug;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What a failed offload link's stderr usually means, as data: a symptom (a regex over one line) and
 * the advice. Only the known GCC 12 offload failures are listed.
 */
enum FailureHints {
  /** nvptx-ld / lld: a math function the accel libm has but the link did not ask for. */
  MISSING_LIBM(
      "unresolved symbol (sqrt|pow|exp|log|sin|cos|tan|floor|ceil|fabs|fmod)f?\\b"
          + "|undefined symbol: (sqrt|pow|exp|log|sin|cos|tan|floor|ceil|fabs|fmod)f?\\b",
      "the device code calls libm: link with -foffload-options=-lm (or"
          + " -foffload-options=TARGET=-lm); -lm alone reaches only the host link"),
  /** lld: Debian 12's amdgcn libraries exist for fiji, gfx900 and gfx906 only. */
  GCN_MACH(
      "incompatible mach|does not support gfx908",
      "this GCC's amdgcn libraries are not built for the requested -march (Debian 12: gfx908 and"
          + " gfx90a offloading cannot link); use -foffload-options=amdgcn-amdhsa=-march=gfx906"),
  /** Host-only hardening compiled into the offload IR (issue 12). */
  HARDENING(
      "__stack_chk_fail|__printf_chk|__fprintf_chk|__memcpy_chk",
      "the objects were compiled with -fstack-protector or -D_FORTIFY_SOURCE, which the device"
          + " cannot provide: compile the files with offloaded code with -fno-stack-protector"
          + " -U_FORTIFY_SOURCE");

  private final Pattern symptom;
  private final String advice;

  FailureHints(String symptom, String advice) {
    this.symptom = Pattern.compile(symptom);
    this.advice = advice;
  }

  /** The advice for every hint one of {@code lines} shows, in declaration order. */
  static List<String> forLines(Collection<String> lines) {
    List<String> advice = new ArrayList<>();
    for (FailureHints h : values()) {
      if (lines.stream().anyMatch(l -> h.symptom.matcher(l).find())) {
        advice.add(h.advice);
      }
    }
    return advice;
  }
}
