package org.offlink.ltowrapper.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.offlink.ltowrapper.options.OptionMergerTest.opts;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The per-option policy for host hardening options the accel compilers cannot honour. */
class HostHardeningTest {
  private final List<String> warnings = new ArrayList<>();

  private List<String> offloadCompile(String merged, boolean keep) {
    return OptionForwarding.compilerOptions(
        HostHardening.forOffloadCompile(opts(merged), keep, warnings::add), false);
  }

  @ParameterizedTest
  @ValueSource(strings = {"full", "branch", "return"})
  void cfProtectionIsRewrittenToNoneWithOneWarningNamingIt(String value) {
    assertEquals(
        List.of("-fno-openacc", "-fPIC", "-fcf-protection=none", "-foffload-abi=lp64", "-fopenmp"),
        offloadCompile(
            "-fno-openacc -fPIC -fcf-protection=" + value + " -foffload-abi=lp64 -fopenmp", false));
    assertEquals(1, warnings.size(), warnings.toString());
    String w = warnings.get(0);
    assertTrue(w.startsWith("%<-fcf-protection=" + value + "%> left out of the offload"), w);
    assertTrue(w.endsWith("(OFFLINK_FLAGS=--keep-host-hardening keeps it)"), w);
    assertTrue(!w.contains("\n"), w);
  }

  @Test
  void bareCfProtectionIsTheFullAlias() {
    assertEquals(
        List.of("-fcf-protection=none", "-fopenmp"),
        offloadCompile("-fcf-protection -fopenmp", false));
    assertTrue(warnings.get(0).startsWith("%<-fcf-protection=full%>"), warnings.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"-fcf-protection=none", "-fcf-protection=check"})
  void valuesTheAccelCompilersAcceptStay(String option) {
    assertEquals(List.of(option, "-fopenmp"), offloadCompile(option + " -fopenmp", false));
    assertEquals(List.of(), warnings);
  }

  @Test
  void keepForwardsAsGcc12() {
    List<DecodedOption> merged = opts("-fcf-protection=full -fopenmp");
    assertSame(merged, HostHardening.forOffloadCompile(merged, true, warnings::add));
    assertEquals(List.of(), warnings);
  }

  @Test
  void stackProtectorAndFortifyAreNotDroppable() {
    // Both live in the IL (per-function optimization node, preprocessed calls), not in these words.
    assertEquals(HostHardening.Action.HINT, HostHardening.STACK_PROTECTOR.action());
    assertEquals(HostHardening.Action.HINT, HostHardening.FORTIFY_SOURCE.action());
    assertEquals(HostHardening.Action.DROP, HostHardening.CF_PROTECTION.action());
  }

  @Test
  void stackProtectorHintFromNvptxAndGcnLinkErrors() {
    String nvptx =
        "unresolved symbol __stack_chk_fail\ncollect2: error: ld returned 1 exit status\n"
            + "mkoffload: fatal error: x86_64-linux-gnu-accel-nvptx-none-gcc-12 returned 1 exit"
            + " status\n";
    String gcn =
        "ld: error: undefined symbol: _exit\n>>> referenced by stack_protector.c:41\n"
            + ">>>               lib_a-stack_protector.o:(__stack_chk_fail) in archive"
            + " /usr/lib/gcc/x86_64-linux-gnu/12/accel/amdgcn-amdhsa/gfx906/libc.a\n";
    for (String output : List.of(nvptx, gcn)) {
      String hint = HostHardening.hint(output).orElseThrow();
      assertTrue(hint.startsWith("the device has no usable %<__stack_chk_fail%>:"), hint);
      assertTrue(hint.contains("%<-fno-stack-protector%>"), hint);
    }
  }

  @Test
  void fortifyHintNamesTheMissingFunction() {
    assertEquals(
        Optional.of(
            "the device libc has no %<__printf_chk%>, which %<-D_FORTIFY_SOURCE%> calls: compile"
                + " the files with offloaded code with %<-U_FORTIFY_SOURCE%>"),
        HostHardening.hint("unresolved symbol __printf_chk\ncollect2: error: ld returned 1\n"));
    assertTrue(
        HostHardening.hint("ld: error: undefined symbol: __memcpy_chk\n")
            .orElseThrow()
            .contains("%<__memcpy_chk%>"));
  }

  @Test
  void otherFailuresGetNoHint() {
    assertEquals(Optional.empty(), HostHardening.hint("unresolved symbol foo\n"));
    assertEquals(
        Optional.empty(),
        HostHardening.hint("lto1: error: '-fcf-protection=full' is not supported for this target"));
    assertEquals(Optional.empty(), HostHardening.hint(""));
  }
}
