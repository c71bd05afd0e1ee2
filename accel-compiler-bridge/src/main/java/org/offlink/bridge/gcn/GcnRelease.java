package org.offlink.bridge.gcn;

import static org.offlink.bridge.gcn.GcnDevice.FeatureDefault.ANY_IF_UNSET;
import static org.offlink.bridge.gcn.GcnDevice.FeatureDefault.FORCE_ANY;
import static org.offlink.bridge.gcn.GcnDevice.FeatureDefault.FORCE_OFF;
import static org.offlink.bridge.gcn.GcnDevice.FeatureDefault.FORCE_UNSET;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.offlink.bridge.gcn.GcnDevice.FeatureDefault;
import org.offlink.bridge.gcn.GcnTargetSettings.Setting;
import org.offlink.bridge.image.GcnDataLayout;

/**
 * What the gcn mkoffload of one GCC release does, as data (delta §6, Debian's builds: 12.2.0,
 * 13.3.0, 14.2.0, 15.3.0): the devices it knows with their defaults, the default device, the
 * initial XNACK/SRAM-ECC fields, how the features are spelled on the command line, how an unknown
 * {@code -march=} is answered, which library options it rewrites, the extra accel-compile option,
 * whether it keeps the function tables in the assembly and passes {@code -save-temps} to the link,
 * and the registration data layout.
 *
 * @param valuedFeatureOptions 14+: {@code -mxnack=on|any|off}, and an unset field is left off the
 *     link line; 12/13: {@code -mxnack}/{@code -mno-xnack} and both fields always given
 * @param validMarch what a refusal of an unknown {@code -march=} lists (14+: Debian's multilibs, as
 *     stock's note does)
 * @param libraryRewrites 14+: {@code -l_GCC_x} arguments mkoffload turns into {@code -lx} (the
 *     driver forwards {@code -lgfortran} and {@code -lm}, 15 also {@code -lstdc++}, that way)
 * @param accelCompileExtra options after {@code -mgomp} in the accel compile (15: {@code
 *     -mfake-exceptions})
 * @param keepsFunctionTables 13+: the {@code .gnu.offload_funcs} table stays in the assembly with a
 *     global {@code .offload_func_table} label (reverse offload)
 * @param linkSaveTemps 13+: {@code -save-temps} reaches the assemble/link step
 */
public record GcnRelease(
    int major,
    List<GcnDevice> devices,
    String defaultDevice,
    Setting initialXnack,
    Setting initialSramEcc,
    boolean valuedFeatureOptions,
    String validMarch,
    Map<String, String> libraryRewrites,
    List<String> accelCompileExtra,
    boolean keepsFunctionTables,
    boolean linkSaveTemps,
    GcnDataLayout layout) {
  /** Copies and checks the fields. */
  public GcnRelease {
    devices = List.copyOf(devices);
    libraryRewrites = Map.copyOf(libraryRewrites);
    accelCompileExtra = List.copyOf(accelCompileExtra);
    Objects.requireNonNull(initialXnack, "initialXnack");
    Objects.requireNonNull(initialSramEcc, "initialSramEcc");
    Objects.requireNonNull(validMarch, "validMarch");
    Objects.requireNonNull(layout, "layout");
    String d = Objects.requireNonNull(defaultDevice, "defaultDevice");
    if (devices.stream().noneMatch(x -> x.name().equals(d))) {
      throw new IllegalArgumentException("default device " + d + " is not in the table");
    }
  }

  private static final List<GcnDevice> GCC12_DEVICES =
      List.of(
          GcnDevice.plain("fiji", 0x2a),
          GcnDevice.plain("gfx900", 0x2c),
          GcnDevice.plain("gfx906", 0x2f),
          GcnDevice.plain("gfx908", 0x30));

  /** Debian bookworm's GCC 12. */
  public static final GcnRelease GCC12 =
      new GcnRelease(
          12,
          GCC12_DEVICES,
          "fiji",
          Setting.ANY,
          Setting.ANY,
          false,
          "fiji, gfx900, gfx906 and gfx908",
          Map.of(),
          List.of(),
          false,
          false,
          GcnDataLayout.GCC12);

  /** GCC 13: GCC 12's devices plus gfx90a; requires mask, function tables kept. */
  public static final GcnRelease GCC13 =
      new GcnRelease(
          13,
          List.of(
              GCC12_DEVICES.get(0),
              GCC12_DEVICES.get(1),
              GCC12_DEVICES.get(2),
              GCC12_DEVICES.get(3),
              GcnDevice.plain("gfx90a", 0x3f)),
          "fiji",
          Setting.ANY,
          Setting.ANY,
          false,
          "fiji, gfx900, gfx906, gfx908 and gfx90a",
          Map.of(),
          List.of(),
          true,
          true,
          GcnDataLayout.GCC13);

  private static final String DEBIAN_MULTILIBS =
      "gfx906, gfx908, gfx90a, gfx90c, gfx1030, gfx1036, gfx1100, gfx1103";

  private static GcnDevice device(
      String name, int mach, FeatureDefault xnack, FeatureDefault sram) {
    return new GcnDevice(name, mach, xnack, sram, 0);
  }

  /** GCC 14: the -march parser with per-device forced defaults; indirect functions. */
  public static final GcnRelease GCC14 =
      new GcnRelease(
          14,
          List.of(
              device("fiji", 0x2a, FORCE_UNSET, FORCE_UNSET),
              device("gfx900", 0x2c, FORCE_OFF, FORCE_UNSET),
              device("gfx906", 0x2f, FORCE_OFF, FORCE_ANY),
              device("gfx908", 0x30, FORCE_OFF, ANY_IF_UNSET),
              device("gfx90a", 0x3f, ANY_IF_UNSET, ANY_IF_UNSET),
              device("gfx90c", 0x32, ANY_IF_UNSET, FORCE_UNSET),
              device("gfx1030", 0x36, FORCE_UNSET, FORCE_UNSET),
              device("gfx1036", 0x45, FORCE_UNSET, FORCE_UNSET),
              device("gfx1100", 0x41, FORCE_UNSET, FORCE_UNSET),
              device("gfx1103", 0x44, FORCE_UNSET, FORCE_UNSET)),
          "gfx900",
          Setting.UNSET,
          Setting.UNSET,
          true,
          DEBIAN_MULTILIBS,
          Map.of("-l_GCC_gfortran", "-lgfortran", "-l_GCC_m", "-lm"),
          List.of(),
          true,
          true,
          GcnDataLayout.GCC14);

  private static GcnDevice rdna(String name, int mach) {
    return device(name, mach, FORCE_UNSET, FORCE_UNSET);
  }

  /** GCC 15: gcn-devices.def (no fiji, generic targets), -mfake-exceptions, #embed. */
  public static final GcnRelease GCC15 =
      new GcnRelease(
          15,
          List.of(
              device("gfx900", 0x2c, FORCE_OFF, FORCE_UNSET),
              device("gfx902", 0x2d, FORCE_OFF, FORCE_UNSET),
              device("gfx904", 0x2e, FORCE_OFF, FORCE_UNSET),
              device("gfx906", 0x2f, FORCE_OFF, ANY_IF_UNSET),
              device("gfx908", 0x30, FORCE_OFF, ANY_IF_UNSET),
              device("gfx909", 0x31, ANY_IF_UNSET, FORCE_UNSET),
              device("gfx90a", 0x3f, ANY_IF_UNSET, ANY_IF_UNSET),
              device("gfx90c", 0x32, ANY_IF_UNSET, FORCE_UNSET),
              new GcnDevice("gfx9-generic", 0x51, ANY_IF_UNSET, FORCE_UNSET, 1),
              rdna("gfx1030", 0x36),
              rdna("gfx1031", 0x37),
              rdna("gfx1032", 0x38),
              rdna("gfx1033", 0x39),
              rdna("gfx1034", 0x3e),
              rdna("gfx1035", 0x3d),
              rdna("gfx1036", 0x45),
              new GcnDevice("gfx10-3-generic", 0x53, FORCE_UNSET, FORCE_UNSET, 1),
              rdna("gfx1100", 0x41),
              rdna("gfx1101", 0x46),
              rdna("gfx1102", 0x47),
              rdna("gfx1103", 0x44),
              rdna("gfx1150", 0x43),
              rdna("gfx1151", 0x4a),
              rdna("gfx1152", 0x55),
              rdna("gfx1153", 0x58),
              new GcnDevice("gfx11-generic", 0x54, FORCE_UNSET, FORCE_UNSET, 1)),
          "gfx900",
          Setting.UNSET,
          Setting.UNSET,
          true,
          DEBIAN_MULTILIBS,
          Map.of("-l_GCC_gfortran", "-lgfortran", "-l_GCC_m", "-lm", "-l_GCC_stdc++", "-lstdc++"),
          List.of("-mfake-exceptions"),
          true,
          true,
          GcnDataLayout.GCC15);

  private static final List<GcnRelease> KNOWN = List.of(GCC12, GCC13, GCC14, GCC15);

  /** The release of GCC {@code major}, if offlink implements its gcn mkoffload. */
  public static Optional<GcnRelease> forMajor(int major) {
    return KNOWN.stream().filter(r -> r.major == major).findFirst();
  }

  /** The device named by {@code -march=name}. */
  public Optional<GcnDevice> device(String name) {
    return devices.stream().filter(d -> d.name().equals(name)).findFirst();
  }

  /** The arguments with the library rewrites applied (GCC edits its argv in place). */
  public List<String> rewriteLibraries(List<String> args) {
    if (libraryRewrites.isEmpty()) {
      return args;
    }
    return args.stream().map(a -> libraryRewrites.getOrDefault(a, a)).toList();
  }
}
