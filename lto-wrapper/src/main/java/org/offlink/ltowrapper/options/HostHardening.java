package org.offlink.ltowrapper.options;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Host hardening options that GCC 12's accel compilers (nvptx-none, amdgcn-amdhsa) cannot honour,
 * and what lto-wrapper does about each. Stock GCC 12 fails the whole offload link on all of them;
 * GCC 13, 14 and 15 do too: their lto-wrapper still merges and forwards {@code -fcf-protection=} to
 * mkoffload ({@code merge_and_complain} and {@code append_compiler_options} in gcc/lto-wrapper.cc,
 * unchanged through trunk after 15, e.g. gcc-mirror/gcc 0013501e), their mkoffload passes it on
 * (the 13/14/15 mkoffload argv captured in shared/reference/gcc13-15-delta.md §4.2 carry {@code
 * -fcf-protection=none}), and {@code process_options} in gcc/toplev.cc still rejects every value
 * but {@code none} on targets without CET; neither nvptx's nor gcn's option override touches {@code
 * flag_stack_protect}.
 *
 * <ul>
 *   <li>{@link Action#DROP}: the option cannot change device code, so lto-wrapper leaves it out of
 *       the offload compile with one warning naming it ({@code OFFLINK_FLAGS=--keep-host-hardening}
 *       keeps GCC 12's behaviour).
 *   <li>{@link Action#HINT}: the option is baked into the IL, so nothing at link time can remove it
 *       without changing what the code means; the link fails as in GCC 12, and lto-wrapper adds one
 *       line telling the user the fix, recognised by the symptom in mkoffload's output.
 * </ul>
 *
 * <p>Not listed, because GCC 12 links them for both targets (checked with the real compilers):
 * {@code -fstack-clash-protection}, {@code -fstack-check}, {@code -ftrivial-auto-var-init=}, {@code
 * -fzero-call-used-regs=}, and {@code -fstack-protector}/{@code -fstack-protector-explicit} unless
 * a device function qualifies for a guard.
 */
public enum HostHardening {
  /**
   * {@code -fcf-protection=full|branch|return}: Intel CET ({@code endbr64}, shadow stack) exists on
   * x86 only, and the accel lto1 answers "{@code '-fcf-protection=full' is not supported for this
   * target}". The option reaches the accel compiler only as a word on mkoffload's argv (merged from
   * the {@code .gnu.offload_lto_.opts} sections; it is no per-function optimization option), and on
   * these targets it selects no instruction; rewritten to {@code none}, the accel compiler gets the
   * argv of the same build without the flag. {@code check} is left alone: lto1 accepts it.
   */
  CF_PROTECTION(
      "x86 control-flow protection (CET) has no meaning on the accel targets, which reject it",
      o ->
          o.option() == GccOption.FCF_PROTECTION
              && o.value() != CfProtection.CHECK
              && (o.value() & CfProtection.FULL) != 0,
      o -> o.with("none", CfProtection.NONE, List.of("-fcf-protection=none"))),
  /**
   * {@code -fstack-protector}, {@code -strong}, {@code -all}: {@code flag_stack_protect} is an
   * optimization option, streamed inside every function's optimization node, so the accel lto1
   * guards device functions whatever its own command line says ({@code
   * -foffload-options=-fno-stack-protector} reaches lto1 and changes nothing, checked with GCC 12).
   * The device libc has no usable {@code __stack_chk_fail} (nvptx: "unresolved symbol
   * __stack_chk_fail"; gcn: newlib's calls the missing {@code _exit}). Only recompiling removes the
   * guards.
   */
  STACK_PROTECTOR(
      "the device has no usable %s: compile the files with offloaded code with"
          + " %<-fno-stack-protector%> (the option is stored in each function, so"
          + " %<-foffload-options=-fno-stack-protector%> cannot undo it)",
      "__stack_chk_fail\\b"),
  /**
   * {@code -D_FORTIFY_SOURCE=1|2|3}: glibc's headers turn {@code printf}, {@code memcpy}, ... into
   * {@code __printf_chk}, {@code __memcpy_chk}, ... while preprocessing, and the device libc lacks
   * most of them ("unresolved symbol __printf_chk"). The calls are in the IL; only recompiling
   * removes them.
   */
  FORTIFY_SOURCE(
      "the device libc has no %s, which %<-D_FORTIFY_SOURCE%> calls: compile the files with"
          + " offloaded code with %<-U_FORTIFY_SOURCE%>",
      "\\b__[A-Za-z0-9]\\w*_chk\\b");

  /** What lto-wrapper does about an option. */
  public enum Action {
    /** Leave it out of the offload compile, with one warning. */
    DROP,
    /** Keep GCC 12's failure and print one line with the fix. */
    HINT
  }

  private final Action action;
  private final String text;
  private final Predicate<DecodedOption> drops;
  private final UnaryOperator<DecodedOption> harmless;
  // The regex's source: compiled only when an image failed, so that a link that succeeds (every
  // link loads this table) never loads java.util.regex on its cold path.
  private final String symptom;

  /** A {@link Action#DROP} entry: which merged options it drops and their harmless form. */
  HostHardening(
      String reason, Predicate<DecodedOption> drops, UnaryOperator<DecodedOption> harmless) {
    this.action = Action.DROP;
    this.text = reason;
    this.drops = drops;
    this.harmless = harmless;
    this.symptom = null;
  }

  /** A {@link Action#HINT} entry: the fix ({@code %s}: the symbol found) and the symptom regex. */
  HostHardening(String fix, String symptom) {
    this.action = Action.HINT;
    this.text = fix;
    this.drops = o -> false;
    this.harmless = UnaryOperator.identity();
    this.symptom = symptom;
  }

  /** What lto-wrapper does about this option. */
  public Action action() {
    return action;
  }

  /**
   * The merged IL options for the offload compile: every option a {@link Action#DROP} entry drops
   * is rewritten to its harmless form ({@code -fcf-protection=none}, the word every GCC 12 object
   * records without the flag), and {@code dropped} receives one warning text for each; with {@code
   * keep} the list is returned as is.
   */
  public static List<DecodedOption> forOffloadCompile(
      List<DecodedOption> merged, boolean keep, Consumer<String> dropped) {
    if (keep) {
      return merged;
    }
    List<DecodedOption> out = new ArrayList<>(merged.size());
    for (DecodedOption o : merged) {
      Optional<HostHardening> entry = dropping(o);
      if (entry.isEmpty()) {
        out.add(o);
        continue;
      }
      dropped.accept(
          "%<"
              + String.join(" ", o.canonical())
              + "%> left out of the offload compile: "
              + entry.get().text
              + " (OFFLINK_FLAGS=--keep-host-hardening keeps it)");
      out.add(entry.get().harmless.apply(o));
    }
    return List.copyOf(out);
  }

  private static Optional<HostHardening> dropping(DecodedOption o) {
    for (HostHardening h : values()) {
      if (h.drops.test(o)) {
        return Optional.of(h);
      }
    }
    return Optional.empty();
  }

  /**
   * The fix line for a failed image build whose output (mkoffload's, with the accel tools') shows
   * the symptom of a {@link Action#HINT} entry: the first entry, in table order, whose symptom
   * appears, with the symbol found; empty when none does.
   */
  public static Optional<String> hint(String output) {
    for (HostHardening h : values()) {
      if (h.action != Action.HINT) {
        continue;
      }
      Matcher m = Pattern.compile(h.symptom).matcher(output);
      if (m.find()) {
        return Optional.of(h.text.replace("%s", "%<" + m.group() + "%>"));
      }
    }
    return Optional.empty();
  }
}
