package org.offlink.bridge.gcc;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.offlink.bridge.tool.OffloadTarget;

/**
 * What one GCC major does differently in the offload link step, as data: the code asks this record
 * instead of comparing version numbers. One record per major that offlink knows ({@link #of}); the
 * facts and their sources are in {@code shared/reference/gcc13-15-delta.md} (below: delta) and
 * {@code docs/gcc-versions.md}.
 *
 * @param major the GCC major version
 * @param libexecPrefix Debian's {@code --libexecdir}: {@code /usr/lib} (12) or {@code /usr/libexec}
 *     (13+), under which {@code gcc/<triplet>/<major>/} holds lto-wrapper and {@code
 *     accel/<target>/mkoffload} (delta §8.2)
 * @param layout the registration data and host table layout (delta §3)
 * @param linkStep how lto-wrapper prepares the offload step (delta §4)
 * @param nvptx the nvptx mkoffload's behaviour (delta §5), with its support gate
 * @param gcn the gcn mkoffload's behaviour (delta §6), with its support gate
 */
public record GccRelease(
    int major, String libexecPrefix, Layout layout, LinkStep linkStep, Nvptx nvptx, Gcn gcn) {
  /**
   * The registration contract between the wrapper objects, {@code __OFFLOAD_TABLE__} and libgomp.
   *
   * @param requiresMask a {@code uintptr_t omp_requires_mask} word precedes each target's data
   *     (GOMP_VERSION 2+), obtained by mkoffload through {@code GCC_OFFLOAD_OMP_REQUIRES_FILE}
   * @param indirectFunctions indirect-function tables exist: {@code ind_fn_num}/{@code
   *     ind_func_count} in the data, {@code //:IND_FUNC_MAP}, a 6-entry {@code __OFFLOAD_TABLE__}
   * @param offloadTableEntries pointers in {@code __OFFLOAD_TABLE__}: 4, or 6 with indirect
   *     functions ({@code __offload_ind_func_table}, {@code __offload_ind_funcs_end})
   */
  public record Layout(boolean requiresMask, boolean indirectFunctions, int offloadTableEntries) {
    /** Checks the table size. */
    public Layout {
      if (offloadTableEntries != (indirectFunctions ? 6 : 4)) {
        throw new IllegalArgumentException("offload table entries: " + offloadTableEntries);
      }
    }
  }

  /**
   * lto-wrapper's behaviour around the offload step.
   *
   * @param pieTableVariant {@code crtoffloadtableS.o} is copied for a PIE or shared link (Debian
   *     13+, delta §4.1 L1), {@code crtoffloadtable.o} otherwise
   * @param forwardsUnwindTables {@code -f[asynchronous-]unwind-tables} are forwarded to mkoffload
   *     (13+, L3)
   * @param perTargetResponseFiles the save-temps response file is {@code <dumppfx><target>
   *     .offload_args} (14+, L8) rather than {@code <dumppfx>offload_args}
   * @param forwardsAbiHostOpts {@code -foffload-abi-host-opts=} is merged like {@code
   *     -foffload-abi=} and forwarded to mkoffload (15, L9)
   */
  public record LinkStep(
      boolean pieTableVariant,
      boolean forwardsUnwindTables,
      boolean perTargetResponseFiles,
      boolean forwardsAbiHostOpts) {}

  /**
   * The nvptx mkoffload of this major.
   *
   * @param refusal why offlink does not build nvptx images for this major; empty when it does
   * @param version the {@code GOMP_offload_register_ver} word ({@code GOMP_VERSION_PACK})
   * @param extraAccelFlags flags after {@code -mgomp} on the accel driver line ({@code
   *     -mfake-exceptions} in 15, delta §5.2)
   * @param requiresHostOpts the host compile's ABI flag comes from {@code -foffload-abi-host-opts=}
   *     and is required (15, delta §5.5); {@code -m64}/{@code -m32} from {@code -foffload-abi=}
   *     otherwise
   * @param libraryRewrites {@code -l_GCC_<name>} arguments rewritten to {@code -l<name>} (14+,
   *     delta §5.1)
   * @param defaultArch the accel compiler's default {@code -march} (delta §5.2): {@code sm_30}
   *     (ptxas of CUDA 12+ rejects it) or {@code sm_52}
   * @param progname the name diagnostics start with: {@code mkoffload} (12), {@code nvptx
   *     mkoffload} (13+)
   */
  public record Nvptx(
      Optional<String> refusal,
      int version,
      List<String> extraAccelFlags,
      boolean requiresHostOpts,
      List<String> libraryRewrites,
      String defaultArch,
      String progname) {
    /** Copies the lists. */
    public Nvptx {
      extraAccelFlags = List.copyOf(extraAccelFlags);
      libraryRewrites = List.copyOf(libraryRewrites);
    }
  }

  /**
   * The gcn mkoffload of this major.
   *
   * @param refusal why offlink does not build gcn images for this major; empty when it does
   * @param version the {@code GOMP_offload_register_ver} word
   * @param progname the name diagnostics start with: {@code mkoffload} (12), {@code gcn mkoffload}
   *     (13+)
   */
  public record Gcn(Optional<String> refusal, int version, String progname) {}

  private static final String NVPTX_NAME = "nvptx mkoffload";
  private static final String GCN_NAME = "gcn mkoffload";
  private static final String LIB = "/usr/lib";
  private static final String LIBEXEC = "/usr/libexec";

  private static final Layout GCC12_LAYOUT = new Layout(false, false, 4);
  private static final Layout MASK_LAYOUT = new Layout(true, false, 4);
  private static final Layout INDIRECT_LAYOUT = new Layout(true, true, 6);

  private static final String UNKNOWN =
      "not supported (offlink implements the offload layouts of GCC 12 to 16)";

  private static final GccRelease GCC15 =
      new GccRelease(
          15,
          LIBEXEC,
          INDIRECT_LAYOUT,
          new LinkStep(true, true, true, true),
          new Nvptx(
              Optional.empty(),
              0x30001,
              List.of("-mfake-exceptions"),
              true,
              List.of("gfortran", "m", "stdc++"),
              "sm_52",
              NVPTX_NAME),
          new Gcn(Optional.empty(), 0x30003, GCN_NAME));

  private static final List<GccRelease> KNOWN =
      List.of(
          new GccRelease(
              12,
              LIB,
              GCC12_LAYOUT,
              new LinkStep(false, false, false, false),
              new Nvptx(
                  Optional.empty(), 0x10001, List.of(), false, List.of(), "sm_30", "mkoffload"),
              new Gcn(Optional.empty(), 0x10002, "mkoffload")),
          new GccRelease(
              13,
              LIBEXEC,
              MASK_LAYOUT,
              new LinkStep(true, true, false, false),
              new Nvptx(
                  Optional.empty(), 0x20001, List.of(), false, List.of(), "sm_30", NVPTX_NAME),
              new Gcn(Optional.empty(), 0x20003, GCN_NAME)),
          new GccRelease(
              14,
              LIBEXEC,
              INDIRECT_LAYOUT,
              new LinkStep(true, true, true, false),
              new Nvptx(
                  Optional.empty(),
                  0x30001,
                  List.of(),
                  false,
                  List.of("gfortran", "m"),
                  "sm_30",
                  NVPTX_NAME),
              new Gcn(Optional.empty(), 0x30003, GCN_NAME)),
          GCC15,
          // 16's lto-wrapper and nvptx mkoffload behave as 15's; its gcn mkoffload's differences
          // (devices, multilibs, mkoffload_setup) are in GcnRelease.GCC16.
          new GccRelease(
              16,
              GCC15.libexecPrefix(),
              GCC15.layout(),
              GCC15.linkStep(),
              GCC15.nvptx(),
              GCC15.gcn()));

  /**
   * The release for {@code major}. A major offlink does not know gets GCC 12's behaviour with both
   * targets refused, so nothing is built for it.
   */
  public static GccRelease of(int major) {
    for (GccRelease r : KNOWN) {
      if (r.major == major) {
        return r;
      }
    }
    return new GccRelease(
        major,
        LIB,
        GCC12_LAYOUT,
        new LinkStep(false, false, false, false),
        new Nvptx(Optional.of(UNKNOWN), 0x10001, List.of(), false, List.of(), "sm_30", "mkoffload"),
        new Gcn(Optional.of(UNKNOWN), 0x10002, "mkoffload"));
  }

  /** The majors with a record, oldest first. */
  public static List<Integer> knownMajors() {
    return KNOWN.stream().map(GccRelease::major).toList();
  }

  /** The known majors that build images for {@code target}, oldest first. */
  public static List<Integer> supportedMajors(OffloadTarget target) {
    return KNOWN.stream().filter(r -> r.refusal(target).isEmpty()).map(GccRelease::major).toList();
  }

  /**
   * What the {@code --version} texts say offlink is compatible with: {@code "GCC 12 to 16"} for the
   * known majors with a supported target ({@code target} only, when given), as data follows.
   */
  public static String compatibility(Optional<OffloadTarget> target) {
    List<Integer> majors =
        target.isPresent()
            ? supportedMajors(target.get())
            : KNOWN.stream().filter(GccRelease::anyTargetSupported).map(GccRelease::major).toList();
    int first = majors.get(0);
    int last = majors.get(majors.size() - 1);
    if (last - first + 1 != majors.size()) {
      return "GCC " + majors.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }
    return first == last ? "GCC " + first : "GCC " + first + " to " + last;
  }

  /** Why {@code target} is not built for this major ("not supported yet ..."); empty if it is. */
  public Optional<String> refusal(OffloadTarget target) {
    return target == OffloadTarget.NVPTX ? nvptx.refusal() : gcn.refusal();
  }

  /**
   * Whether the host compile of {@code target}'s generated C takes its ABI flag from {@code
   * -foffload-abi-host-opts=}, which must then be given (15+, delta §5.5 and §6.7).
   */
  public boolean requiresHostOpts(OffloadTarget target) {
    return target == OffloadTarget.NVPTX
        ? nvptx.requiresHostOpts()
        : linkStep.forwardsAbiHostOpts();
  }

  /**
   * The name {@code target}'s mkoffload starts its diagnostics with ({@code nvptx mkoffload: } and
   * {@code gcn mkoffload: } from 13; {@code mkoffload} for a refused target).
   */
  public String mkoffloadName(OffloadTarget target) {
    if (refusal(target).isPresent()) {
      return "mkoffload";
    }
    return target == OffloadTarget.NVPTX ? nvptx.progname() : gcn.progname();
  }

  /** True when some target is built for this major. */
  public boolean anyTargetSupported() {
    return nvptx.refusal().isEmpty() || gcn.refusal().isEmpty();
  }
}
