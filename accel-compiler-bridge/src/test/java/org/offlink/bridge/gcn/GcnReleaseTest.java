package org.offlink.bridge.gcn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.offlink.bridge.gcc.GccRelease;
import org.offlink.bridge.gcc.UnsupportedGccException;
import org.offlink.bridge.image.GcnDataLayout;
import org.offlink.bridge.image.HsaXnack;
import org.offlink.bridge.tool.OffloadTarget;

/**
 * The per-release gcn device model against what Debian's real gcn mkoffloads were observed to
 * produce (delta §6.1, §6.2 table of early-debug e_flags, §6.5 link lines, Appendix A responses).
 */
class GcnReleaseTest {
  private static GcnTargetSettings settings(int major, String options) throws Exception {
    List<String> args = options.isEmpty() ? List.of() : Arrays.asList(options.split(" "));
    return GcnTargetSettings.fromArguments(GcnRelease.forMajor(major).orElseThrow(), args);
  }

  @ParameterizedTest(name = "gcc-{0} [{1}]")
  @CsvSource(
      delimiter = '|',
      value = {
        "13 | '' | 1 | 0x2a",
        "13 | -march=gfx906 | 2 | 0x52f",
        "13 | -march=gfx906 -mxnack | 2 | 0x72f",
        "13 | -march=gfx90a | 2 | 0x53f",
        "14 | '' | 2 | 0x22c",
        "14 | -march=gfx906 | 2 | 0x62f",
        "14 | -march=gfx906 -mxnack=on | 2 | 0x62f",
        "14 | -march=gfx90a | 2 | 0x53f",
        "14 | -march=gfx90a -mxnack=on -msram-ecc=off | 2 | 0xb3f",
        "14 | -march=gfx90c | 2 | 0x132",
        "14 | -march=gfx1100 | 2 | 0x41",
        "14 | -march=fiji | 1 | 0x2a",
        "15 | '' | 2 | 0x22c",
        "15 | -march=gfx906 | 2 | 0x62f",
        "15 | -march=gfx90a | 2 | 0x53f",
        "15 | -march=gfx1100 | 2 | 0x41",
        "15 | -march=gfx9-generic | 4 | 0x1000151",
        "16 | '' | 2 | 0x53f",
        "16 | -march=gfx908 | 2 | 0x630",
        "16 | -march=gfx908 -mxnack=on | 2 | 0x730",
        "16 | -march=gfx90a -mxnack=off | 2 | 0x63f",
        "16 | -march=gfx9-generic | 4 | 0x1000151",
        "16 | -march=gfx9-4-generic | 4 | 0x100055f",
        "16 | -march=gfx10-3-generic | 4 | 0x1000053",
        "16 | -march=gfx11-generic -mxnack=on | 4 | 0x1000054",
      })
  void debugObjectHeaderMatchesStock(int major, String options, int abi, String flags)
      throws Exception {
    GcnTargetSettings s = settings(major, options);
    assertEquals(abi, s.debugObjectAbiVersion());
    assertEquals(Integer.decode(flags), s.debugObjectElfFlags());
  }

  @ParameterizedTest(name = "gcc-{0} [{1}]")
  @CsvSource(
      delimiter = '|',
      value = {
        "12 | -march=gfx906 | -mno-xnack -msram-ecc=any",
        "13 | -march=gfx906 | -mno-xnack -msram-ecc=any",
        "14 | -march=gfx906 | -mxnack=off -msram-ecc=any",
        "15 | -march=gfx906 | -mxnack=off -msram-ecc=any",
        "14 | '' | -mxnack=off",
        "14 | -march=gfx1100 | ''",
        "15 | -march=gfx9-generic | -mxnack=any",
        "14 | -march=gfx906 -msram-ecc=on | -mxnack=off -msram-ecc=any",
        "15 | -march=gfx906 -msram-ecc=on | -mxnack=off -msram-ecc=on",
        "16 | '' | -mxnack=any -msram-ecc=any",
        "16 | -march=gfx908 | -mxnack=off -msram-ecc=any",
        "16 | -march=gfx908 -mxnack=on | -mxnack=on -msram-ecc=any",
        "16 | -march=gfx9-4-generic | -mxnack=any -msram-ecc=any",
        "16 | -march=gfx11-generic | ''",
      })
  void linkFeatureOptionsMatchStock(int major, String options, String expected) throws Exception {
    List<String> want = expected.isEmpty() ? List.of() : Arrays.asList(expected.split(" "));
    assertEquals(want, settings(major, options).linkOptions());
  }

  @Test
  void gcc15SramEccOnIsHonouredOnGfx906Where14ForcesAny() throws Exception {
    assertEquals(0xe2f, settings(15, "-march=gfx906 -msram-ecc=on").debugObjectElfFlags());
    assertEquals(0x62f, settings(14, "-march=gfx906 -msram-ecc=on").debugObjectElfFlags());
  }

  @Test
  void unknownArchIsRefusedWithTheValidList() {
    UnsupportedGccException e =
        assertThrows(UnsupportedGccException.class, () -> settings(14, "-march=gfx1101"));
    assertEquals(
        "unrecognized argument in option '-march=gfx1101'; valid arguments to '-march=' are:"
            + " gfx906, gfx908, gfx90a, gfx90c, gfx1030, gfx1036, gfx1100, gfx1103",
        e.getMessage());
    // 15 knows gfx1101 (gcn-devices.def) but dropped fiji.
    assertThrows(UnsupportedGccException.class, () -> settings(15, "-march=fiji"));
    assertTrue(GcnRelease.GCC15.device("gfx1101").isPresent());
    UnsupportedGccException old =
        assertThrows(UnsupportedGccException.class, () -> settings(13, "-march=gfx90c"));
    assertTrue(old.getMessage().contains("GCC 13 supports fiji, gfx900"), old.getMessage());
  }

  /**
   * Debian's GCC 16 has gcn libraries for gfx90a (default), gfx908 and the generic targets only;
   * its mkoffload refuses any other device, naming the generic target of its family.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "gfx900, gfx9-generic",
    "gfx906, gfx9-generic",
    "gfx90c, gfx9-generic",
    "gfx942, gfx9-4-generic",
    "gfx950, gfx9-4-generic",
    "gfx1030, gfx10-3-generic",
    "gfx1036, gfx10-3-generic",
    "gfx1100, gfx11-generic",
    "gfx1153, gfx11-generic",
  })
  void gcc16RefusesDevicesWithoutLibrariesNamingTheirGenericTarget(String arch, String generic) {
    UnsupportedGccException e =
        assertThrows(UnsupportedGccException.class, () -> settings(16, "-march=" + arch));
    assertEquals(
        "GCC was built without library support for '-march="
            + arch
            + "'; consider compiling for the associated generic architecture '-march="
            + generic
            + "' instead",
        e.getMessage());
  }

  @Test
  void gcc16LinksTheDefaultGfx908AndTheGenericTargetsAndListsItsMultilibs() throws Exception {
    for (String arch :
        List.of("gfx90a", "gfx908", "gfx9-generic", "gfx9-4-generic", "gfx10-3-generic")) {
      assertEquals(arch, settings(16, "-march=" + arch).arch().name());
    }
    assertEquals("gfx90a", settings(16, "").arch().name());
    UnsupportedGccException e =
        assertThrows(UnsupportedGccException.class, () -> settings(16, "-march=gfx1200"));
    assertEquals(
        "unrecognized argument in option '-march=gfx1200'; valid arguments to '-march=' are:"
            + " gfx908, gfx9-generic, gfx9-4-generic, gfx10-3-generic, gfx11-generic",
        e.getMessage());
    // 15's check never fires on Debian: it has no generic multilibs.
    assertEquals("gfx1101", settings(15, "-march=gfx1101").arch().name());
  }

  /**
   * GCC 16's HSA_XNACK check (process_asm): set where XNACK is on or off, or unified shared memory
   * (0x20) or self maps (0x400) are required; "off" wins over the requirement, with a warning.
   */
  @ParameterizedTest(name = "[{0}] mask {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "'' | 0x200 | UNCHECKED | false",
        "'' | 0x220 | ON | false",
        "'' | 0x600 | ON | false",
        "-march=gfx908 | 0x200 | OFF | false",
        "-march=gfx908 | 0x220 | OFF | true",
        "-march=gfx908 -mxnack=on | 0 | ON | false",
        "-march=gfx908 -mxnack=any | 0 | UNCHECKED | false",
        "-mxnack=off | 0 | OFF | false",
        "-march=gfx9-generic | 0 | UNCHECKED | false",
        "-march=gfx11-generic | 0x220 | ON | false",
        "-march=gfx11-generic -mxnack=on | 0 | UNCHECKED | false",
      })
  void gcc16HsaXnackFollowsTheXnackFieldAndTheRequiresMask(
      String options, String mask, HsaXnack expected, boolean conflict) throws Exception {
    GcnTargetSettings s = settings(16, options);
    assertEquals(expected, s.hsaXnack(Long.decode(mask)));
    assertEquals(conflict, s.xnackConflicts(Long.decode(mask)));
  }

  @Test
  void gcc16DeviceTableIsGcnDevicesDefsTwentyNineEntries() {
    assertEquals(29, GcnRelease.GCC16.devices().size());
    assertEquals(
        List.of("gfx9-generic", "gfx9-4-generic", "gfx10-3-generic", "gfx11-generic"),
        GcnRelease.GCC16.devices().stream()
            .filter(GcnDevice::generic)
            .map(GcnDevice::name)
            .toList());
    assertEquals(0x4c, GcnRelease.GCC16.device("gfx942").orElseThrow().elfMach());
    assertEquals(0x4f, GcnRelease.GCC16.device("gfx950").orElseThrow().elfMach());
    assertEquals("gfx90a", GcnRelease.GCC16.defaultDevice());
  }

  @Test
  void gcc15DeviceTableHasGcnDevicesDefsTwentySixEntries() {
    assertEquals(26, GcnRelease.GCC15.devices().size());
    assertEquals(
        3, GcnRelease.GCC15.devices().stream().filter(GcnDevice::generic).count(), "generic");
    assertEquals(10, GcnRelease.GCC14.devices().size());
  }

  @Test
  void libraryRewritesFollowTheRelease() {
    List<String> args = List.of("x.o", "-l_GCC_gfortran", "-l_GCC_m", "-l_GCC_stdc++");
    assertEquals(args, GcnRelease.GCC13.rewriteLibraries(args));
    assertEquals(
        List.of("x.o", "-lgfortran", "-lm", "-l_GCC_stdc++"),
        GcnRelease.GCC14.rewriteLibraries(args));
    assertEquals(
        List.of("x.o", "-lgfortran", "-lm", "-lstdc++"), GcnRelease.GCC15.rewriteLibraries(args));
  }

  /** The gcn data layouts agree with the shared per-major record (registration word, fields). */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(ints = {12, 13, 14, 15, 16})
  void layoutAgreesWithGccRelease(int major) {
    GccRelease shared = GccRelease.of(major);
    GcnDataLayout layout = GcnRelease.forMajor(major).orElseThrow().layout();
    assertEquals(shared.gcn().version(), layout.registerVersion());
    assertEquals(shared.layout().requiresMask(), layout.requiresMask());
    assertEquals(shared.layout().indirectFunctions(), layout.indirectFunctions());
    assertTrue(shared.refusal(OffloadTarget.AMDGCN).isEmpty());
  }

  @Test
  void stackSizeIsReadLikeAtoi() {
    assertEquals(65536, GcnImageBuilder.stackSize(List.of("-mstack-size=65536")));
    assertEquals(12, GcnImageBuilder.stackSize(List.of("-mstack-size=1", "-mstack-size=12k")));
    assertEquals(0, GcnImageBuilder.stackSize(List.of("-mstack-size=x")));
  }
}
