package org.offlink.bridge.gcn;

import static org.offlink.bridge.gcn.GcnDevice.FeatureDefault.ANY_IF_UNSET;
import static org.offlink.bridge.gcn.GcnDevice.FeatureDefault.FORCE_ANY;
import static org.offlink.bridge.gcn.GcnDevice.FeatureDefault.FORCE_OFF;
import static org.offlink.bridge.gcn.GcnDevice.FeatureDefault.FORCE_UNSET;
import static org.offlink.bridge.gcn.GcnDevice.FeatureDefault.OFF_IF_UNSET;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.offlink.bridge.gcn.GcnDevice.FeatureDefault;
import org.offlink.bridge.gcn.GcnTargetSettings.Setting;
import org.offlink.bridge.image.GcnDataLayout;

/**
 * What the gcn mkoffload of one GCC release does, as data (delta §6, Debian's builds: 12.2.0,
 * 13.3.0, 14.2.0, 15.3.0, 16.2.0): the devices it knows with their defaults, the default device,
 * the initial XNACK/SRAM-ECC fields, how the features are spelled on the command line, Debian's
 * multilibs (which answer an unknown {@code -march=} and, 15+, refuse a device whose generic family
 * has libraries but which has none), which library options it rewrites, the extra accel-compile
 * option, whether it keeps the function tables in the assembly and passes {@code -save-temps} to
 * the link, and the registration data layout.
 *
 * @param valuedFeatureOptions 14+: {@code -mxnack=on|any|off}, and an unset field is left off the
 *     link line; 12/13: {@code -mxnack}/{@code -mno-xnack} and both fields always given
 * @param multilibs 14+: the {@code -march=} values of Debian's gcn multilibs other than the default
 *     device, in the order of GCC's {@code multilib_options} (config.gcc's {@code
 *     TM_MULTILIB_CONFIG} less the default); empty for 12/13, whose refusal lists the device table
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
    List<String> multilibs,
    Map<String, String> libraryRewrites,
    List<String> accelCompileExtra,
    boolean keepsFunctionTables,
    boolean linkSaveTemps,
    GcnDataLayout layout) {
  /** Copies and checks the fields. */
  public GcnRelease {
    devices = List.copyOf(devices);
    multilibs = List.copyOf(multilibs);
    libraryRewrites = Map.copyOf(libraryRewrites);
    accelCompileExtra = List.copyOf(accelCompileExtra);
    Objects.requireNonNull(initialXnack, "initialXnack");
    Objects.requireNonNull(initialSramEcc, "initialSramEcc");
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
          List.of(),
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
          List.of(),
          Map.of(),
          List.of(),
          true,
          true,
          GcnDataLayout.GCC13);

  /** Debian 14's and 15's gcn multilibs (default gfx900 has the top-level libraries). */
  private static final List<String> DEBIAN_MULTILIBS =
      List.of("gfx906", "gfx908", "gfx90a", "gfx90c", "gfx1030", "gfx1036", "gfx1100", "gfx1103");

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

  private static GcnDevice rdna(String name, int mach, String family) {
    return new GcnDevice(name, mach, FORCE_UNSET, FORCE_UNSET, 0, family);
  }

  private static GcnDevice gfx9(String name, int mach, FeatureDefault xnack, FeatureDefault sram) {
    return new GcnDevice(name, mach, xnack, sram, 0, GFX9_GENERIC);
  }

  private static final String GFX9_GENERIC = "gfx9-generic";
  private static final String GFX9_4_GENERIC = "gfx9-4-generic";
  private static final String GFX10_3_GENERIC = "gfx10-3-generic";
  private static final String GFX11_GENERIC = "gfx11-generic";

  /** gcn-devices.def's RDNA2 and RDNA3 devices and their generic targets (15 and 16 alike). */
  private static final List<GcnDevice> RDNA =
      List.of(
          rdna("gfx1030", 0x36, GFX10_3_GENERIC),
          rdna("gfx1031", 0x37, GFX10_3_GENERIC),
          rdna("gfx1032", 0x38, GFX10_3_GENERIC),
          rdna("gfx1033", 0x39, GFX10_3_GENERIC),
          rdna("gfx1034", 0x3e, GFX10_3_GENERIC),
          rdna("gfx1035", 0x3d, GFX10_3_GENERIC),
          rdna("gfx1036", 0x45, GFX10_3_GENERIC),
          new GcnDevice(GFX10_3_GENERIC, 0x53, FORCE_UNSET, FORCE_UNSET, 1),
          rdna("gfx1100", 0x41, GFX11_GENERIC),
          rdna("gfx1101", 0x46, GFX11_GENERIC),
          rdna("gfx1102", 0x47, GFX11_GENERIC),
          rdna("gfx1103", 0x44, GFX11_GENERIC),
          rdna("gfx1150", 0x43, GFX11_GENERIC),
          rdna("gfx1151", 0x4a, GFX11_GENERIC),
          rdna("gfx1152", 0x55, GFX11_GENERIC),
          rdna("gfx1153", 0x58, GFX11_GENERIC),
          new GcnDevice(GFX11_GENERIC, 0x54, FORCE_UNSET, FORCE_UNSET, 1));

  /**
   * gcn-devices.def's GFX9 devices before gfx942 (15 and 16 alike): {@code xnackOff} is how the
   * release's mkoffload applies the file's XNACK {@code HSACO_ATTR_OFF} (15: forced, 16: only where
   * unset).
   */
  private static List<GcnDevice> gfx9Devices(FeatureDefault xnackOff) {
    return List.of(
        gfx9("gfx900", 0x2c, xnackOff, FORCE_UNSET),
        gfx9("gfx902", 0x2d, xnackOff, FORCE_UNSET),
        gfx9("gfx904", 0x2e, xnackOff, FORCE_UNSET),
        gfx9("gfx906", 0x2f, xnackOff, ANY_IF_UNSET),
        device("gfx908", 0x30, xnackOff, ANY_IF_UNSET),
        gfx9("gfx909", 0x31, ANY_IF_UNSET, FORCE_UNSET),
        device("gfx90a", 0x3f, ANY_IF_UNSET, ANY_IF_UNSET),
        gfx9("gfx90c", 0x32, ANY_IF_UNSET, FORCE_UNSET));
  }

  private static List<GcnDevice> concat(List<GcnDevice> a, List<GcnDevice> b) {
    List<GcnDevice> all = new java.util.ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static final GcnDevice GFX9_GENERIC_DEVICE =
      new GcnDevice(GFX9_GENERIC, 0x51, ANY_IF_UNSET, FORCE_UNSET, 1);

  /** GCC 15: gcn-devices.def (no fiji, generic targets), -mfake-exceptions, #embed. */
  public static final GcnRelease GCC15 =
      new GcnRelease(
          15,
          concat(concat(gfx9Devices(FORCE_OFF), List.of(GFX9_GENERIC_DEVICE)), RDNA),
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

  /**
   * GCC 16 (sid's 16.2.0; gcn-devices.def, config.gcc and mkoffload.cc of the source package): 15's
   * devices plus gfx942, gfx950 and their generic target gfx9-4-generic; XNACK "off" defaults only
   * fill an unset field ({@code -mxnack=on} is honoured on gfx906/gfx908); the default device is
   * gfx90a and Debian's multilibs are gfx908 and the four generic targets, so every other device is
   * refused naming its generic target; the C file gains {@code mkoffload_setup} ({@link
   * GcnDataLayout#GCC16}).
   */
  public static final GcnRelease GCC16 =
      new GcnRelease(
          16,
          concat(
              concat(
                  gfx9Devices(OFF_IF_UNSET),
                  List.of(
                      new GcnDevice("gfx942", 0x4c, ANY_IF_UNSET, ANY_IF_UNSET, 0, GFX9_4_GENERIC),
                      new GcnDevice("gfx950", 0x4f, ANY_IF_UNSET, ANY_IF_UNSET, 0, GFX9_4_GENERIC),
                      GFX9_GENERIC_DEVICE,
                      new GcnDevice(GFX9_4_GENERIC, 0x5f, ANY_IF_UNSET, ANY_IF_UNSET, 1))),
              RDNA),
          "gfx90a",
          Setting.UNSET,
          Setting.UNSET,
          true,
          List.of("gfx908", GFX9_GENERIC, GFX9_4_GENERIC, GFX10_3_GENERIC, GFX11_GENERIC),
          GCC15.libraryRewrites,
          GCC15.accelCompileExtra,
          true,
          true,
          GcnDataLayout.GCC16);

  private static final List<GcnRelease> KNOWN = List.of(GCC12, GCC13, GCC14, GCC15, GCC16);

  /** The release of GCC {@code major}, if offlink implements its gcn mkoffload. */
  public static Optional<GcnRelease> forMajor(int major) {
    return KNOWN.stream().filter(r -> r.major == major).findFirst();
  }

  /**
   * What a refusal of an unknown {@code -march=} lists: 14+ print GCC's note, the multilibs joined
   * by ", "; for 12/13 (which ignore an unknown value) offlink lists the device table.
   */
  public String validMarch() {
    if (valuedFeatureOptions) {
      return String.join(", ", multilibs);
    }
    List<String> names = devices.stream().map(GcnDevice::name).toList();
    return String.join(", ", names.subList(0, names.size() - 1))
        + " and "
        + names.get(names.size() - 1);
  }

  /**
   * The generic target to compile for instead, when {@code device} has no libraries of its own but
   * its generic family has (15+'s {@code check_for_missing_lib}: the default device and devices of
   * no family always have theirs); empty when the device can be linked.
   */
  public Optional<String> missingLibraryAlternative(GcnDevice device) {
    String family = device.genericFamily();
    if (family.isEmpty()
        || device.name().equals(defaultDevice)
        || multilibs.contains(device.name())) {
      return Optional.empty();
    }
    if (!family.equals(defaultDevice) && !multilibs.contains(family)) {
      return Optional.empty();
    }
    return Optional.of(family);
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
