package org.offlink.ltowrapper.options;

import static org.offlink.ltowrapper.options.ArgKind.JOINED;
import static org.offlink.ltowrapper.options.ArgKind.JOINED_OR_SEPARATE;
import static org.offlink.ltowrapper.options.ArgKind.LEVEL;
import static org.offlink.ltowrapper.options.ArgKind.NONE;
import static org.offlink.ltowrapper.options.ArgKind.SEPARATE;
import static org.offlink.ltowrapper.options.OptionTrait.COMMON;
import static org.offlink.ltowrapper.options.OptionTrait.DIAG;
import static org.offlink.ltowrapper.options.OptionTrait.DRIVER;
import static org.offlink.ltowrapper.options.OptionTrait.IL_FORWARD;
import static org.offlink.ltowrapper.options.OptionTrait.IL_FORWARD_SINCE_13;
import static org.offlink.ltowrapper.options.OptionTrait.LTO;

import java.util.Arrays;
import java.util.Set;

/**
 * The options lto-wrapper understands (GCC 12), as data: spelling, argument form, whether a {@code
 * -fno-} form exists, the merge rule applied to {@code .opts} sections (LW:228), who consumes it,
 * and GCC's option classes. Options outside the table decode as {@link #GENERIC}.
 */
public enum GccOption {
  // Optimisation level: merged to the maximum level.
  O("-O", LEVEL, false, MergeRule.MAX_OPT_LEVEL, COMMON, IL_FORWARD),
  OFAST("-Ofast", NONE, false, MergeRule.MAX_OPT_LEVEL, COMMON, IL_FORWARD),
  OG("-Og", NONE, false, MergeRule.MAX_OPT_LEVEL, COMMON, IL_FORWARD),
  OS("-Os", NONE, false, MergeRule.MAX_OPT_LEVEL, COMMON, IL_FORWARD),
  OZ("-Oz", NONE, false, MergeRule.MAX_OPT_LEVEL, COMMON, IL_FORWARD),
  G("-g", LEVEL, false, MergeRule.KEEP_FIRST, COMMON, DRIVER, IL_FORWARD),
  // PIC/PIE: resolved after the merge loop.
  FPIC("-fPIC", NONE, true, MergeRule.PIC, COMMON, IL_FORWARD),
  FPIC_SMALL("-fpic", NONE, true, MergeRule.PIC, COMMON, IL_FORWARD),
  FPIE("-fPIE", NONE, true, MergeRule.PIE, COMMON, IL_FORWARD),
  FPIE_SMALL("-fpie", NONE, true, MergeRule.PIE, COMMON, IL_FORWARD),
  // Offloading languages and ABI.
  FOPENMP("-fopenmp", NONE, true, MergeRule.POSITIVE_WINS, LTO, IL_FORWARD),
  FOPENACC("-fopenacc", NONE, true, MergeRule.POSITIVE_WINS, LTO, IL_FORWARD),
  FOPENACC_DIM("-fopenacc-dim=", JOINED, false, MergeRule.SAME_VALUE, LTO, IL_FORWARD),
  FOFFLOAD_ABI("-foffload-abi=", JOINED, false, MergeRule.CONSISTENT, COMMON, IL_FORWARD),
  FOFFLOAD_ABI_HOST_OPTS(
      "-foffload-abi-host-opts=", JOINED, false, MergeRule.CONSISTENT, COMMON, IL_FORWARD),
  FOFFLOAD_OPTIONS("-foffload-options=", JOINED, false, MergeRule.APPEND, COMMON, DRIVER),
  FOFFLOAD("-foffload=", JOINED, false, MergeRule.IGNORE, COMMON, DRIVER),
  FCF_PROTECTION("-fcf-protection=", JOINED, false, MergeRule.CF_PROTECTION, COMMON, IL_FORWARD),
  // Unwind tables: GCC 13+ merges and forwards them (GCC 12 ignores them).
  FASYNC_UNWIND_TABLES(
      "-fasynchronous-unwind-tables",
      NONE,
      true,
      MergeRule.POSITIVE_WINS,
      COMMON,
      IL_FORWARD_SINCE_13),
  FUNWIND_TABLES(
      "-funwind-tables", NONE, true, MergeRule.POSITIVE_WINS, COMMON, IL_FORWARD_SINCE_13),
  // LTO control.
  FLTO("-flto", NONE, false, MergeRule.IGNORE, COMMON),
  FLTO_EQ("-flto=", JOINED, false, MergeRule.FLTO, COMMON),
  FLTO_PARTITION("-flto-partition=", JOINED, false, MergeRule.IGNORE, COMMON),
  FLINKER_OUTPUT("-flinker-output=", JOINED, false, MergeRule.IGNORE, LTO, DRIVER),
  FRESOLUTION("-fresolution=", JOINED, false, MergeRule.IGNORE, LTO),
  // Kept from the first unit that has them.
  FCOMMON("-fcommon", NONE, true, MergeRule.KEEP_FIRST, COMMON, IL_FORWARD),
  FGNU_TM("-fgnu-tm", NONE, true, MergeRule.KEEP_FIRST, COMMON, IL_FORWARD),
  FSHOW_COLUMN("-fshow-column", NONE, true, MergeRule.KEEP_FIRST, COMMON, IL_FORWARD, DIAG),
  FDIAG_SHOW_CARET(
      "-fdiagnostics-show-caret", NONE, true, MergeRule.KEEP_FIRST, COMMON, IL_FORWARD, DIAG),
  FDIAG_SHOW_LABELS(
      "-fdiagnostics-show-labels", NONE, true, MergeRule.KEEP_FIRST, COMMON, IL_FORWARD, DIAG),
  FDIAG_SHOW_LINE_NUMBERS(
      "-fdiagnostics-show-line-numbers",
      NONE,
      true,
      MergeRule.KEEP_FIRST,
      COMMON,
      IL_FORWARD,
      DIAG),
  FDIAG_SHOW_OPTION(
      "-fdiagnostics-show-option", NONE, true, MergeRule.KEEP_FIRST, COMMON, IL_FORWARD, DIAG),
  FDIAG_SHOW_LOCATION(
      "-fdiagnostics-show-location=",
      JOINED,
      false,
      MergeRule.KEEP_FIRST,
      COMMON,
      IL_FORWARD,
      DIAG),
  FDIAG_COLOR("-fdiagnostics-color=", JOINED, false, MergeRule.IGNORE, COMMON, DIAG),
  FDIAG_FORMAT("-fdiagnostics-format=", JOINED, false, MergeRule.IGNORE, COMMON, DIAG),
  // Assembler options: checked pairwise after the merge loop.
  XASSEMBLER("-Xassembler", SEPARATE, false, MergeRule.XASSEMBLER_PAIRWISE, DRIVER, IL_FORWARD),
  // Driver options lto-wrapper reads.
  OUTPUT("-o", JOINED_OR_SEPARATE, false, MergeRule.IGNORE, COMMON, DRIVER),
  SAVE_TEMPS("-save-temps", NONE, false, MergeRule.IGNORE, DRIVER),
  SAVE_TEMPS_EQ("-save-temps=", JOINED, false, MergeRule.IGNORE, DRIVER),
  VERBOSE("-v", NONE, false, MergeRule.IGNORE, DRIVER),
  DUMPDIR("-dumpdir", SEPARATE, false, MergeRule.IGNORE, COMMON, DRIVER),
  DUMPBASE("-dumpbase", SEPARATE, false, MergeRule.IGNORE, COMMON, DRIVER),
  DUMPBASE_EXT("-dumpbase-ext", SEPARATE, false, MergeRule.IGNORE, COMMON, DRIVER),
  PIE("-pie", NONE, false, MergeRule.IGNORE, DRIVER),
  NO_PIE("-no-pie", NONE, false, MergeRule.IGNORE, DRIVER),
  SHARED("-shared", NONE, false, MergeRule.IGNORE, COMMON, DRIVER),
  STATIC_PIE("-static-pie", NONE, false, MergeRule.IGNORE, DRIVER),
  // Driver options with a separate argument (must consume it while decoding).
  PREFIX_B("-B", JOINED_OR_SEPARATE, false, MergeRule.IGNORE, DRIVER),
  LIBDIR_L("-L", JOINED_OR_SEPARATE, false, MergeRule.IGNORE, DRIVER),
  LIB_L("-l", JOINED_OR_SEPARATE, false, MergeRule.IGNORE, DRIVER),
  XLINKER("-Xlinker", SEPARATE, false, MergeRule.IGNORE, DRIVER),
  LANGUAGE_X("-x", JOINED_OR_SEPARATE, false, MergeRule.IGNORE, DRIVER),
  // Front-end options with a separate argument; not forwarded (not common/driver/LTO).
  XPREPROCESSOR("-Xpreprocessor", SEPARATE, false, MergeRule.IGNORE),
  INCLUDE_DIR("-I", JOINED_OR_SEPARATE, false, MergeRule.IGNORE),
  DEFINE("-D", JOINED_OR_SEPARATE, false, MergeRule.IGNORE),
  UNDEFINE("-U", JOINED_OR_SEPARATE, false, MergeRule.IGNORE),
  INCLUDE("-include", SEPARATE, false, MergeRule.IGNORE),
  ISYSTEM("-isystem", SEPARATE, false, MergeRule.IGNORE),
  IQUOTE("-iquote", SEPARATE, false, MergeRule.IGNORE),
  /** Any option not in this table; its class comes from the spelling. */
  GENERIC("", NONE, false, MergeRule.KEEP_FIRST_IF_TARGET),
  /** A word that is not an option (an input file name). */
  INPUT("", NONE, false, MergeRule.IGNORE);

  private final String spelling;
  private final ArgKind argKind;
  private final boolean negatable;
  private final MergeRule mergeRule;
  private final Set<OptionTrait> traits;

  GccOption(
      String spelling,
      ArgKind argKind,
      boolean negatable,
      MergeRule mergeRule,
      OptionTrait... traits) {
    this.spelling = spelling;
    this.argKind = argKind;
    this.negatable = negatable;
    this.mergeRule = mergeRule;
    // Immutable sets rather than EnumSet: EnumSet finds the enum's constants by reflection on
    // first use, and this table is initialised on every link's way to its first accel compiler.
    this.traits = Set.copyOf(Arrays.asList(traits));
  }

  /** The spelling, e.g. {@code -foffload-abi=}. */
  public String spelling() {
    return spelling;
  }

  /** How the argument is given. */
  public ArgKind argKind() {
    return argKind;
  }

  /** Whether a {@code -fno-} form exists. */
  public boolean negatable() {
    return negatable;
  }

  /** The rule used when merging {@code .opts} sections. */
  public MergeRule mergeRule() {
    return mergeRule;
  }

  /** GCC's option classes and lto-wrapper's forwarding lists this option belongs to (immutable). */
  public Set<OptionTrait> traits() {
    return traits;
  }

  /** The negative spelling ({@code -fno-openmp} for {@code -fopenmp}). */
  String negativeSpelling() {
    return spelling.substring(0, 2) + "no-" + spelling.substring(2);
  }
}
