package org.offlink.cli.debug;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The pieces of the standalone commands: gcc's -### text, the argument split, the inputs. */
class StandaloneTest {
  private static final String HASH_HASH_HASH =
      String.join(
          "\n",
          "Using built-in specs.",
          "COLLECT_GCC=gcc-12",
          "COLLECT_LTO_WRAPPER=/t/libexec/offlink/lto-wrapper",
          "OFFLOAD_TARGET_NAMES=nvptx-none",
          "Target: x86_64-linux-gnu",
          "COMPILER_PATH=/t/libexec/offlink/:/usr/lib/gcc/x86_64-linux-gnu/12/",
          "LIBRARY_PATH=/t/libexec/offlink/:/usr/lib/",
          "COLLECT_GCC_OPTIONS='-B' '/t/libexec/offlink/' '-fopenmp' '-c' '-o' 'x.o'",
          "COLLECT_GCC_OPTIONS='-B' '/t/libexec/offlink/' '-fopenmp' '-o' 'p' '-dumpdir' 'p.'",
          " /usr/lib/gcc/x86_64-linux-gnu/12/collect2 -plugin x.so -pie -o p a.o",
          "");

  @Test
  void driverVariablesAndLinkerOutputFromHashHashHash() {
    DriverEnvironment d = DriverEnvironment.parse(HASH_HASH_HASH, "gcc-12");
    assertEquals("pie", d.linkerOutput());
    assertEquals(
        Map.of(
            "COLLECT_GCC", "gcc-12",
            "COLLECT_LTO_WRAPPER", "/t/libexec/offlink/lto-wrapper",
            "OFFLOAD_TARGET_NAMES", "nvptx-none",
            "COMPILER_PATH", "/t/libexec/offlink/:/usr/lib/gcc/x86_64-linux-gnu/12/",
            "LIBRARY_PATH", "/t/libexec/offlink/:/usr/lib/",
            "COLLECT_GCC_OPTIONS",
                "'-B' '/t/libexec/offlink/' '-fopenmp' '-o' 'p' '-dumpdir' 'p.'"),
        d.variables(),
        "the link step's COLLECT_GCC_OPTIONS, not a compile step's");
    assertEquals(
        "dyn",
        DriverEnvironment.parse(HASH_HASH_HASH.replace(" -pie ", " -shared "), "g").linkerOutput());
    assertEquals(
        "exec", DriverEnvironment.parse(HASH_HASH_HASH.replace(" -pie ", " "), "g").linkerOutput());
  }

  @Test
  void noLinkStepIsOneLine() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> DriverEnvironment.parse("COLLECT_GCC=gcc-12\n", "gcc-12"));
    assertEquals(
        "gcc-12 -###: expected a link step (collect2) and COLLECT_GCC_OPTIONS, found no collect2"
            + " line",
        e.getMessage());
  }

  @Test
  void ownWordsAreTakenOutAndGccsStayInOrder() {
    StandaloneArgs a =
        StandaloneArgs.parse(
            List.of(
                "--target",
                "amdgcn-amdhsa",
                "-march=gfx906",
                "-O2",
                "a.o",
                "-o",
                "w.o",
                "--gcc=g++-12",
                "-foffload-options=-lm",
                "b.o"),
            true);
    assertEquals("g++-12", a.gcc());
    assertEquals(Optional.of("amdgcn-amdhsa"), a.target());
    assertEquals(Optional.of("gfx906"), a.march());
    assertEquals(Optional.of("w.o"), a.output());
    assertEquals(List.of("-O2", "a.o", "-foffload-options=-lm", "b.o"), a.gccArgs());

    StandaloneArgs link =
        StandaloneArgs.parse(List.of("-fopenmp", "-o", "p", "-march=x86-64"), false);
    assertEquals(List.of("-fopenmp", "-o", "p", "-march=x86-64"), link.gccArgs(), "gcc's -o");
    assertEquals("gcc-12", link.gcc());
    assertThrows(
        IllegalArgumentException.class, () -> StandaloneArgs.parse(List.of("--target"), true));
  }

  @Test
  void inputsAreTheWordsThatAreNeitherOptionsNorTheirValues() {
    assertEquals(
        List.of("a.o", "libx.a"),
        StandaloneLink.inputs(List.of("-fopenmp", "-o", "p", "a.o", "-L", "lib", "-lm", "libx.a")));
  }
}
