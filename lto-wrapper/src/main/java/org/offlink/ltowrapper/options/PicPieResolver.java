package org.offlink.ltowrapper.options;

import java.util.List;

/**
 * The PIC/PIE resolution after a merge (LW:471–577): {@code -fno-pic}/{@code -fno-pie} in any unit
 * wins, a PIC option missing in the incoming unit is dropped, the smaller model wins, and PIC
 * combined with PIE becomes PIE ({@code -fPIC}+{@code -fpie} = {@code -fpie}).
 */
final class PicPieResolver {
  private PicPieResolver() {}

  static void resolve(MergeState s) {
    List<DecodedOption> m = s.merged;
    for (int j = 0; j < m.size(); ) {
      DecodedOption o = m.get(j);
      MergeRule rule = o.option().mergeRule();
      boolean keep =
          rule == MergeRule.PIC
              ? resolvePic(s, j)
              : rule == MergeRule.PIE ? resolvePie(s, j) : true;
      if (keep) {
        j++;
      } else {
        m.remove(j);
      }
    }
  }

  private static boolean resolvePic(MergeState s, int j) {
    DecodedOption o = s.merged.get(j);
    DecodedOption pic = s.pic;
    DecodedOption pie = s.pie;
    if (o.negative()) {
      return true;
    }
    if (pic == null || pic.negative()) {
      if (pie != null) {
        boolean big = o.option() == GccOption.FPIC && pie.option() == GccOption.FPIE;
        GccOption to = big ? GccOption.FPIE : GccOption.FPIE_SMALL;
        String spelling = pie.negative() ? "-fno-pie" : to.spelling();
        s.merged.set(j, retyped(to, pie.value(), spelling));
        return true;
      }
      if (pic != null) {
        s.merged.set(j, pic);
        return true;
      }
      return false; // missing in one unit: the target default decides
    }
    if (pic.option() == GccOption.FPIC_SMALL && o.option() == GccOption.FPIC) {
      s.merged.set(j, pic);
    }
    return true;
  }

  private static boolean resolvePie(MergeState s, int j) {
    DecodedOption o = s.merged.get(j);
    DecodedOption pic = s.pic;
    DecodedOption pie = s.pie;
    if (o.negative()) {
      return true;
    }
    if (pie == null || pie.negative()) {
      if (pic != null) {
        GccOption to = o.option();
        String spelling = o.canonical().get(0);
        if (pic.option() == GccOption.FPIC_SMALL && o.option() == GccOption.FPIE) {
          to = GccOption.FPIE_SMALL;
          spelling = pic.negative() ? "-fno-pie" : "-fpie";
        } else if (pic.negative()) {
          spelling = "-fno-pie";
        }
        s.merged.set(j, retyped(to, pic.value(), spelling));
        return true;
      }
      if (pie != null) {
        s.merged.set(j, pie);
        return true;
      }
      return false;
    }
    if (pie.option() == GccOption.FPIE_SMALL && o.option() == GccOption.FPIE) {
      s.merged.set(j, pie);
    }
    return true;
  }

  private static DecodedOption retyped(GccOption to, int value, String spelling) {
    return new DecodedOption(to, to.name(), "", value, List.of(spelling), spelling);
  }
}
