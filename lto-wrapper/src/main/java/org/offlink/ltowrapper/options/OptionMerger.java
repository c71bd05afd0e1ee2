package org.offlink.ltowrapper.options;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Merges the option strings of several {@code .opts} sections into one option set, applying each
 * option's {@link MergeRule}, then the PIC/PIE resolution and the {@code -Xassembler} check. One
 * instance per lto-wrapper run: as in GCC, an {@code -Xassembler} mismatch found in any merge (host
 * or offload) drops every {@code -Xassembler} option from then on.
 */
public final class OptionMerger {
  private final Consumer<String> warnings;
  private final List<DecodedOption> linkTime;
  private boolean xassemblerMismatch;

  /**
   * Creates a merger.
   *
   * @param linkTime the decoded link-time options (COLLECT_GCC_OPTIONS); used for {@code
   *     -fcf-protection=}
   * @param warnings receives warning texts (GCC quote markup)
   */
  public OptionMerger(List<DecodedOption> linkTime, Consumer<String> warnings) {
    this.linkTime = List.copyOf(linkTime);
    this.warnings = warnings;
  }

  /** Starts an accumulation: the first string becomes the base, later ones are merged into it. */
  public Accumulator accumulator() {
    return new Accumulator();
  }

  /** Whether {@code -Xassembler} options were found inconsistent and must be dropped. */
  public boolean xassemblerMismatch() {
    return xassemblerMismatch;
  }

  /** Merges {@code incoming} into {@code existing} (GCC's {@code merge_and_complain}). */
  public List<DecodedOption> merge(List<DecodedOption> existing, List<DecodedOption> incoming) {
    DecodedOption linkCf = null;
    for (DecodedOption o : linkTime) {
      if (o.option() == GccOption.FCF_PROTECTION) {
        linkCf = o;
      }
    }
    MergeState s = new MergeState(new ArrayList<>(existing), linkCf);
    for (DecodedOption in : incoming) {
      in.option().mergeRule().apply(s, in);
    }
    PicPieResolver.resolve(s);
    if (!xassemblerMismatch) {
      checkXassembler(s.merged, incoming);
    }
    return List.copyOf(s.merged);
  }

  private void checkXassembler(List<DecodedOption> have, List<DecodedOption> in) {
    List<String> a = xassemblerArgs(have);
    List<String> b = xassemblerArgs(in);
    for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
      String message;
      if (i >= b.size()) {
        message = "Extra option to %<-Xassembler%>: " + a.get(i);
      } else if (i >= a.size()) {
        message = "Extra option to %<-Xassembler%>: " + b.get(i);
      } else if (!a.get(i).equals(b.get(i))) {
        message = "Options to %<-Xassembler%> do not match: " + a.get(i) + ", " + b.get(i);
      } else {
        continue;
      }
      warnings.accept(message + ", dropping all %<-Xassembler%> and %<-Wa%> options.");
      xassemblerMismatch = true;
      return;
    }
  }

  private static List<String> xassemblerArgs(List<DecodedOption> options) {
    List<String> args = new ArrayList<>();
    for (DecodedOption o : options) {
      if (o.option() == GccOption.XASSEMBLER) {
        args.add(o.arg());
      }
    }
    return args;
  }

  /** Merges a sequence of option strings, the first one being taken as is (LW:1106). */
  public final class Accumulator {
    private List<DecodedOption> merged;

    private Accumulator() {}

    /** Adds one decoded {@code .opts} string. */
    public void add(List<DecodedOption> options) {
      merged = merged == null ? List.copyOf(options) : merge(merged, options);
    }

    /** Whether any string was added. */
    public boolean isEmpty() {
      return merged == null;
    }

    /** The merged options (empty if nothing was added). */
    public List<DecodedOption> result() {
      return merged == null ? List.of() : merged;
    }
  }
}
