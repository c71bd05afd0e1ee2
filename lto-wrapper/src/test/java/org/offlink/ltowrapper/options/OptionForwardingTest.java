package org.offlink.ltowrapper.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.offlink.ltowrapper.options.OptionMergerTest.opts;

import java.util.List;
import org.junit.jupiter.api.Test;

class OptionForwardingTest {
  @Test
  void linkerOptionsDropOutputLtoAndNegativeOpenmp() {
    List<DecodedOption> link =
        opts(
            "-v -save-temps -fno-openmp -fopenacc -o x_nv -flto=4 -flto -mtune=generic"
                + " -march=x86-64 -pthread -dumpdir x_nv. -L/usr/lib -std=c11 -I inc");
    assertEquals(
        List.of(
            "-v",
            "-save-temps",
            "-fopenacc",
            "-mtune=generic",
            "-march=x86-64",
            "-pthread",
            "-dumpdir",
            "x_nv.",
            "-L",
            "/usr/lib"),
        OptionForwarding.linkerOptions(link));
  }

  @Test
  void diagOptionsOnlyDiagnostics() {
    List<DecodedOption> link =
        opts("-O2 -fdiagnostics-color=never -fshow-column -fdiagnostics-show-caret -v");
    assertEquals(
        List.of("-fdiagnostics-color=never", "-fshow-column", "-fdiagnostics-show-caret"),
        OptionForwarding.diagOptions(link));
  }

  @Test
  void offloadOptionsRouting() {
    List<DecodedOption> o =
        OptionDecoder.decode(
            List.of(
                "gcc",
                "-foffload-options=-lm",
                "-foffload-options=nvptx-none=-latomic",
                "-foffload-options=amdgcn-amdhsa,nvptx-none=-O3 -g",
                "-foffload-options=nvptx=-nope"));
    assertEquals(
        List.of("-lm", "-latomic", "-O3", "-g"), OptionForwarding.offloadOptions("nvptx-none", o));
    assertEquals(List.of("-lm", "-O3", "-g"), OptionForwarding.offloadOptions("amdgcn-amdhsa", o));
  }

  @Test
  void offloadOptionsQuotedWords() {
    List<DecodedOption> o =
        List.of(OptionDecoder.decodeOne("-foffload-options=-DX='a b' -Y", null));
    assertEquals(List.of("-DX=a b", "-Y"), OptionForwarding.offloadOptions("t", o));
  }

  @Test
  void decoderSeparateAndJoinedForms() {
    List<DecodedOption> d = opts("-o out -oout2 -Xassembler --64 -g -g0 -ggdb -O -O2 -Ofast");
    assertEquals(List.of("-o", "out"), d.get(0).canonical());
    assertEquals(List.of("-o", "out2"), d.get(1).canonical());
    assertEquals("--64", d.get(2).arg());
    assertEquals(GccOption.G, d.get(3).option());
    assertEquals("0", d.get(4).arg());
    assertEquals(GccOption.GENERIC, d.get(5).option());
    assertEquals(GccOption.O, d.get(6).option());
    assertEquals("2", d.get(7).arg());
    assertEquals(GccOption.OFAST, d.get(8).option());
  }
}
