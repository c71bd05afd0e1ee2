package org.offlink.ltowrapper.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.offlink.ltowrapper.run.LtoWrapperException;

class OptionMergerTest {
  private final List<String> warnings = new ArrayList<>();

  static List<DecodedOption> opts(String words) {
    List<String> argv = new ArrayList<>();
    argv.add("gcc");
    if (!words.isBlank()) {
      argv.addAll(Arrays.asList(words.trim().split(" +")));
    }
    return OptionDecoder.decode(argv);
  }

  private String merge(String link, String... units) {
    OptionMerger merger = new OptionMerger(opts(link), warnings::add);
    OptionMerger.Accumulator acc = merger.accumulator();
    for (String u : units) {
      acc.add(opts(u));
    }
    return String.join(
        " ", OptionForwarding.compilerOptions(acc.result(), merger.xassemblerMismatch()));
  }

  @Test
  void keepFirst_targetOptionsAndG() {
    assertEquals(
        "-march=znver2 -g -mavx2", merge("", "-march=znver2 -g", "-march=haswell -g0 -mavx2"));
  }

  @Test
  void keepFirst_targetOptionAddedWhenAbsentFromFirstUnit() {
    assertEquals("-fopenmp -mavx2", merge("", "-fopenmp", "-mavx2"));
  }

  @Test
  void unionPositiveWins() {
    assertEquals("-fopenmp -fno-openacc", merge("", "-fno-openmp -fno-openacc", "-fopenmp"));
    assertEquals("-fopenmp", merge("", "-fopenmp", "-fno-openmp"));
  }

  @Test
  void openaccDimMustMatch() {
    LtoWrapperException e =
        assertThrows(
            LtoWrapperException.class, () -> merge("", "-fopenacc-dim=32", "-fopenacc-dim=64"));
    assertEquals("option -fopenacc-dim=64 with different values", e.getMessage());
  }

  @Test
  void offloadAbiMustBeConsistent() {
    LtoWrapperException e =
        assertThrows(
            LtoWrapperException.class,
            () -> merge("", "-foffload-abi=lp64", "-foffload-abi=ilp32"));
    assertEquals(
        "option -foffload-abi=ilp32 not used consistently in all LTO input files", e.getMessage());
    assertEquals("-foffload-abi=lp64", merge("", "-foffload-abi=lp64", "-foffload-abi=lp64"));
  }

  @ParameterizedTest
  @CsvSource({
    "-O2, -O3, -O3",
    "-O2, -O2, -O2",
    "-Os, -Os, -Os",
    "-Os, -O1, -O2",
    "-Ofast, -O2, -O3",
    "-Og, -O, -O1",
    "-Oz, -Og, -O2",
    "-O, -O, -O1",
  })
  void optimisationLevelMax(String a, String b, String expected) {
    assertEquals(expected, merge("", a, b));
  }

  @ParameterizedTest
  @CsvSource({
    "-fPIC, -fpic, -fpic",
    "-fpic, -fPIC, -fpic",
    "-fPIC, -fno-pic, -fno-pic",
    "-fPIC, '', ''",
    "-fPIC, -fPIE, -fPIE",
    "-fpic, -fPIE, -fpie",
    "-fPIC, -fpie, -fpie",
    "-fpic, -fpie, -fpie",
    "-fPIE, -fpie, -fpie",
    "-fPIE, -fPIC, -fPIE",
    "-fPIE, -fpic, -fpie",
    "-fPIE, '', ''",
    "-fno-pie, -fPIE, -fno-pie",
  })
  void picPieResolution(String a, String b, String expected) {
    assertEquals(expected == null ? "" : expected, merge("", a, b == null ? "" : b));
  }

  @Test
  void cfProtectionAndOfValues() {
    assertEquals(
        "-fcf-protection=branch", merge("", "-fcf-protection=full", "-fcf-protection=branch"));
    assertEquals(
        "-fcf-protection=none", merge("", "-fcf-protection=branch", "-fcf-protection=return"));
  }

  @Test
  void cfProtectionLinkTimeOverridesIncoming() {
    // A non-check link-time value wins: later units are not merged.
    assertEquals(
        "-fcf-protection=full",
        merge("-fcf-protection=none", "-fcf-protection=full", "-fcf-protection=branch"));
  }

  @Test
  void bareCfProtectionAtLinkTimeIsTheFullAliasAndWins() {
    // common.opt: -fcf-protection is Alias(fcf-protection=,full): the first unit stays the base,
    // later units are not merged (without the alias they would be ANDed down to none).
    assertEquals(
        "-fcf-protection=full",
        merge("-fcf-protection", "-fcf-protection=full", "-fcf-protection=none"));
    assertEquals(
        List.of("-fcf-protection=full"),
        OptionDecoder.decodeOne("-fcf-protection", null).canonical());
  }

  @Test
  void cfProtectionCheckAtLinkTimeIsFatalOnMismatch() {
    LtoWrapperException e =
        assertThrows(
            LtoWrapperException.class,
            () -> merge("-fcf-protection=check", "-fcf-protection=full", "-fcf-protection=branch"));
    assertEquals(
        "option %<-fcf-protection%> with mismatching values (full, branch)", e.getMessage());
  }

  @ParameterizedTest
  @CsvSource({
    "-flto=4, -flto=8, -flto=8",
    "-flto=8, -flto=4, -flto=8",
    "-flto=auto, -flto=8, -flto=auto",
    "-flto=8, -flto=auto, -flto=auto",
    "-flto=8, -flto=jobserver, -flto=jobserver",
    "-flto=jobserver, -flto=16, -flto=jobserver",
    "-flto=jobserver, -flto=auto, -flto=auto",
  })
  void fltoMerge(String a, String b, String expected) {
    OptionMerger merger = new OptionMerger(List.of(), warnings::add);
    List<DecodedOption> merged = merger.merge(opts(a), opts(b));
    assertEquals(expected, merged.get(0).canonical().get(0));
  }

  @Test
  void xassemblerPairsMatch() {
    assertEquals("-Xassembler --64", merge("", "-Xassembler --64", "-Xassembler --64"));
    assertTrue(warnings.isEmpty());
  }

  @Test
  void xassemblerMismatchWarnsAndDropsAll() {
    assertEquals("-O2", merge("", "-O2 -Xassembler --64", "-Xassembler --32"));
    assertEquals(
        List.of(
            "Options to %<-Xassembler%> do not match: --64, --32, dropping all %<-Xassembler%>"
                + " and %<-Wa%> options."),
        warnings);
  }

  @Test
  void xassemblerExtraWarns() {
    merge("", "-Xassembler --64 -Xassembler -W", "-Xassembler --64");
    assertEquals(
        List.of(
            "Extra option to %<-Xassembler%>: -W, dropping all %<-Xassembler%> and %<-Wa%>"
                + " options."),
        warnings);
  }

  @Test
  void xassemblerCheckedOnlyOnce() {
    merge("", "-Xassembler a", "-Xassembler b", "-Xassembler c");
    assertEquals(1, warnings.size());
  }

  @Test
  void offloadOptionsAlwaysAppended() {
    OptionMerger merger = new OptionMerger(List.of(), warnings::add);
    OptionMerger.Accumulator acc = merger.accumulator();
    acc.add(opts("-foffload-options=-march=gfx906"));
    acc.add(opts("-foffload-options=-march=gfx906"));
    assertEquals(
        List.of("-march=gfx906", "-march=gfx906"),
        OptionForwarding.offloadOptions("amdgcn-amdhsa", acc.result()));
  }

  @Test
  void fltoAndPartitionNeverForwardedFromIl() {
    assertEquals("-O2", merge("", "-flto -flto=4 -flto-partition=one -O2"));
  }
}
