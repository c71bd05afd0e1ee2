package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Assertions over builds and runs: a run against the corpus expectations, and two runs (stock GCC
 * against a tool folder) against each other.
 */
final class RegistrationAssertions {
  /** EF_AMDGPU_MACH (the low byte of e_flags) for each GCN arch the tests use. */
  private static final Map<String, Integer> GCN_MACH =
      Map.of("fiji", 0x2a, "gfx900", 0x2c, "gfx906", 0x2f, "gfx908", 0x30);

  private RegistrationAssertions() {}

  /**
   * Asserts that {@code ours} registered exactly what {@code stock} registered: the same records in
   * the same order, byte for byte (versions, device types, modules, host table symbols, PTX chunk
   * and HSACO digests, variable and function names, launch dims, register counts).
   */
  static void assertSameRegistrations(RunResult stock, RunResult ours) {
    List<String> expected = stock.dump().text().lines().toList();
    List<String> actual = ours.dump().text().lines().toList();
    int common = Math.min(expected.size(), actual.size());
    for (int i = 0; i < common; i++) {
      if (!expected.get(i).equals(actual.get(i))) {
        fail(
            ours.build().describe()
                + ": registration differs from "
                + stock.build().describe()
                + " at dump line "
                + (i + 1)
                + "\n  stock: "
                + expected.get(i)
                + "\n  ours:  "
                + actual.get(i)
                + "\n  in record: "
                + header(expected, i));
      }
    }
    assertEquals(
        expected.size(),
        actual.size(),
        () -> ours.build().describe() + ": dump line count differs from stock (common part equal)");
  }

  /** Asserts the same exit status, standard output and registrations as stock. */
  static void assertSameBehaviour(RunResult stock, RunResult ours) {
    assertEquals(stock.exitStatus(), ours.exitStatus(), () -> ours.build().describe() + ": exit");
    assertEquals(stock.stdout(), ours.stdout(), () -> ours.build().describe() + ": stdout");
    assertSameRegistrations(stock, ours);
  }

  /** Asserts a build passed, showing its log when not. */
  static void assertBuilt(BuildResult build) {
    assertTrue(
        build.succeeded(),
        () -> build.describe() + ": build failed (" + build.exitStatus() + ")\n" + build.log());
  }

  /**
   * Asserts a run matches its corpus program: exit 0, the expected output, and per target one
   * registration per expected image with the right version, module and host counts, device tables
   * of the same size as the host tables, the requested GCN arch, and a matching unregistration.
   */
  static void assertMatchesCorpus(RunResult run) {
    BuildResult build = run.build();
    String what = build.describe();
    assertEquals(0, run.exitStatus(), () -> what + ": exit status; stderr:\n" + run.stderr());
    assertEquals(build.program().expectedOutput(), run.stdout(), () -> what + ": stdout");
    List<ExpectedImage> images = build.program().expectedImages();
    List<Registration> registered = run.dump().registered();
    assertEquals(
        images.size() * build.targets().targets().size(),
        registered.size(),
        () -> what + ": number of registered images\n" + run.dump().text());
    for (OffloadTarget target : build.targets().targets()) {
      List<Registration> mine =
          registered.stream().filter(r -> r.deviceType() == target.deviceType()).toList();
      assertEquals(images, summaries(mine), () -> what + ": " + target + " images");
      for (Registration r : mine) {
        assertRegistration(build, target, r);
      }
    }
    assertUnregisteredAll(what, run.dump());
  }

  private static void assertRegistration(BuildResult build, OffloadTarget target, Registration r) {
    String what = build.describe() + " " + target + " image of " + r.module();
    assertEquals(target.registerVersion(), r.version(), () -> what + ": version");
    assertEquals(r.hostFuncs(), r.deviceFuncs().orElse(-1), () -> what + ": device functions");
    assertEquals(r.hostVars(), r.deviceVars().orElse(-1), () -> what + ": device variables");
    if (target == OffloadTarget.GCN) {
      String arch = build.targets().gcnArch().orElseThrow();
      Integer mach = GCN_MACH.get(arch);
      assertTrue(mach != null, () -> "no EF_AMDGPU_MACH known for " + arch);
      assertEquals(mach, r.gcnElfFlags().orElse(-1) & 0xff, () -> what + ": HSACO arch");
    }
  }

  private static void assertUnregisteredAll(String what, RegistrationDump dump) {
    List<String> registered = new ArrayList<>();
    dump.registered().forEach(r -> registered.add(r.module() + "/" + r.deviceType()));
    List<String> unregistered = new ArrayList<>();
    dump.unregistered().forEach(r -> unregistered.add(r.module() + "/" + r.deviceType()));
    registered.sort(null);
    unregistered.sort(null);
    assertEquals(registered, unregistered, () -> what + ": every image is unregistered at exit");
  }

  /** Asserts the build failed the way the corpus program says GCC 12 fails. */
  static void assertLinkRefused(BuildResult build) {
    String expected = build.program().expectedLinkError().orElseThrow();
    assertFalse(build.succeeded(), () -> build.describe() + ": link should have failed");
    assertTrue(
        build.failureDiagnostics().contains(expected),
        () -> build.describe() + ": diagnostics lack '" + expected + "':\n" + build.log());
  }

  private static List<ExpectedImage> summaries(List<Registration> registrations) {
    return registrations.stream()
        .map(r -> new ExpectedImage(r.module(), r.hostFuncs(), r.hostVars()))
        .toList();
  }

  private static String header(List<String> lines, int index) {
    for (int i = index; i >= 0; i--) {
      if (!lines.get(i).startsWith(" ")) {
        return lines.get(i);
      }
    }
    return "?";
  }
}
