package org.offlink.ltowrapper.options;

import java.util.List;
import org.offlink.ltowrapper.run.LtoWrapperException;

/**
 * How an option from a later {@code .opts} string is merged into the options merged so far (GCC
 * 12's {@code merge_and_complain}, LW:228). Messages use GCC's {@code %<...%>} quote markup; the
 * diagnostics printer renders it for the locale.
 */
public enum MergeRule {
  /** Not merged (the first unit's value, if any, stays). */
  IGNORE {
    @Override
    void apply(MergeState s, DecodedOption in) {}
  },
  /** Keep exactly one setting: the first one seen. */
  KEEP_FIRST {
    @Override
    void apply(MergeState s, DecodedOption in) {
      if (s.find(in.key()) < 0) {
        s.merged.add(in);
      }
    }
  },
  /** {@link #KEEP_FIRST} for target options, ignored otherwise (GCC's default case). */
  KEEP_FIRST_IF_TARGET {
    @Override
    void apply(MergeState s, DecodedOption in) {
      if (in.has(OptionTrait.TARGET)) {
        KEEP_FIRST.apply(s, in);
      }
    }
  },
  /** Remember the last PIC option; resolved after the loop by {@link PicPieResolver}. */
  PIC {
    @Override
    void apply(MergeState s, DecodedOption in) {
      s.pic = in;
    }
  },
  /** Remember the last PIE option; resolved after the loop by {@link PicPieResolver}. */
  PIE {
    @Override
    void apply(MergeState s, DecodedOption in) {
      s.pie = in;
    }
  },
  /** Union: add if absent; the positive form beats {@code -fno-}. */
  POSITIVE_WINS {
    @Override
    void apply(MergeState s, DecodedOption in) {
      int i = s.find(in.key());
      if (i < 0) {
        s.merged.add(in);
      } else if (in.value() > s.merged.get(i).value()) {
        s.merged.set(i, in);
      }
    }
  },
  /** Add if absent; a different value is fatal ({@code -fopenacc-dim=}). */
  SAME_VALUE {
    @Override
    void apply(MergeState s, DecodedOption in) {
      addOrRequireSame(s, in, "option " + in.text() + " with different values");
    }
  },
  /** Add if absent; a different value is fatal ({@code -foffload-abi=}). */
  CONSISTENT {
    @Override
    void apply(MergeState s, DecodedOption in) {
      addOrRequireSame(
          s, in, "option " + in.text() + " not used consistently in all LTO input files");
    }
  },
  /** Always appended, so duplicates accumulate ({@code -foffload-options=}). */
  APPEND {
    @Override
    void apply(MergeState s, DecodedOption in) {
      s.merged.add(in);
    }
  },
  /** {@code -flto=}: auto is kept, a new auto/jobserver wins, jobserver stays, else max N. */
  FLTO {
    @Override
    void apply(MergeState s, DecodedOption in) {
      mergeFlto(s.merged, in, false);
    }
  },
  /**
   * {@code -fcf-protection=}: a link-time value other than {@code check} overrides; otherwise add
   * if absent, and on a mismatch take the bitwise AND (fatal when link-time says {@code check}).
   */
  CF_PROTECTION {
    @Override
    void apply(MergeState s, DecodedOption in) {
      DecodedOption link = s.linkCfProtection;
      if (link != null && link.value() != CfProtection.CHECK) {
        return;
      }
      int i = s.find(in.key());
      if (i < 0) {
        s.merged.add(in);
        return;
      }
      DecodedOption have = s.merged.get(i);
      if (have.value() == in.value()) {
        return;
      }
      if (link != null) {
        throw new LtoWrapperException(
            "option %<-fcf-protection%> with mismatching values ("
                + have.arg()
                + ", "
                + in.arg()
                + ")");
      }
      int bits = have.value() & (in.value() & CfProtection.FULL);
      String name = CfProtection.name(bits);
      s.merged.set(i, have.with(name, bits, List.of("-fcf-protection=" + name)));
    }
  },
  /** {@code -O*}: identical kinds stay, otherwise {@code -O<max level>}. */
  MAX_OPT_LEVEL {
    @Override
    void apply(MergeState s, DecodedOption in) {
      int i = 0;
      while (i < s.merged.size() && s.merged.get(i).option().mergeRule() != MAX_OPT_LEVEL) {
        i++;
      }
      if (i == s.merged.size()) {
        s.merged.add(in);
        return;
      }
      DecodedOption have = s.merged.get(i);
      if (have.option() == in.option() && in.option() != GccOption.O) {
        return;
      }
      String level = Integer.toString(Math.max(level(have), level(in)));
      s.merged.set(
          i, new DecodedOption(GccOption.O, "O", level, 1, List.of("-O" + level), "-O" + level));
    }
  },
  /** {@code -Xassembler}: not merged; both sides are compared pairwise after the loop. */
  XASSEMBLER_PAIRWISE {
    @Override
    void apply(MergeState s, DecodedOption in) {}
  };

  /** Merges {@code in} into {@code s.merged}. */
  abstract void apply(MergeState s, DecodedOption in);

  /** Adds {@code in} if absent; a merged option with another argument is fatal with {@code why}. */
  private static void addOrRequireSame(MergeState s, DecodedOption in, String why) {
    int i = s.find(in.key());
    if (i < 0) {
      s.merged.add(in);
    } else if (!s.merged.get(i).arg().equals(in.arg())) {
      throw new LtoWrapperException(why);
    }
  }

  /** GCC's {@code merge_flto_options}; {@code force} makes {@code in} override (link time, 13+). */
  public static void mergeFlto(List<DecodedOption> merged, DecodedOption in, boolean force) {
    int i = 0;
    while (i < merged.size() && merged.get(i).option() != GccOption.FLTO_EQ) {
      i++;
    }
    if (i == merged.size()) {
      merged.add(in);
      return;
    }
    String have = merged.get(i).arg();
    String take = have;
    if (force) {
      take = in.arg();
    } else if (!have.equals(in.arg()) && !have.equals("auto")) {
      if (in.arg().equals("auto") || in.arg().equals("jobserver")) {
        take = in.arg();
      } else if (!have.equals("jobserver") && atoi(in.arg()) > atoi(have)) {
        take = in.arg();
      }
    }
    merged.set(i, merged.get(i).with(take, 1, List.of("-flto=" + take)));
  }

  private static int level(DecodedOption o) {
    switch (o.option()) {
      case OFAST:
        return 3;
      case OS:
      case OZ:
        return 2;
      case OG:
        return 1;
      default:
        return o.arg().isEmpty() ? 1 : atoi(o.arg());
    }
  }

  /** C's {@code atoi}: leading decimal digits, else 0. */
  static int atoi(String s) {
    int n = 0;
    for (int i = 0; i < s.length() && Character.isDigit(s.charAt(i)) && n < 100_000_000; i++) {
      n = n * 10 + (s.charAt(i) - '0');
    }
    return n;
  }
}
