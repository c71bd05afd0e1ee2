package org.offlink.ltowrapper.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.offlink.bridge.OfflinkFlags;
import org.offlink.bridge.gcc.MkoffloadArguments;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.io.ObjectScan;
import org.offlink.ltowrapper.io.ScannedInputs;

/**
 * The key's mkoffload arguments, taken from the typed values, are the ones the key took from the
 * rendered argv before (the reference filter below), so the caches of existing links stay valid.
 */
class ImageKeyArgumentsTest {
  private static final Path DIR = Path.of("/work/link");
  private static final Path TMP = Path.of("/tmp/cc1234");
  private static final List<InputFile> INPUTS =
      List.of(InputFile.parse("a.o", DIR), InputFile.parse("lib.a@0x1f0", DIR));

  static Stream<MkoffloadArguments> links() {
    List<String> objects = List.of("a.o", "lib.a@0x1f0");
    List<String> il = List.of("-fopenmp", "-O2", "-foffload-abi=lp64", "-fPIC");
    List<String> g = List.of("-fopenmp", "-O2", "-g", "-foffload-abi=lp64");
    // the words of several -foffload-options, as lto-wrapper hands them on (LW: buildargv)
    List<String> two = List.of("-lm", "-march=sm_80", "-O3");
    List<String> gcn = List.of("-march=gfx906", "-lm");
    // mkoffload's own options among the words: left out of the key, as the argv filter did
    List<String> own = List.of("-v", "-march=sm_80", "-save-temps", "-o", "w.o", "-g", "-o");
    return Stream.of(
        args(TMP + "/x.target.o", objects, il, TMP + "/a.xnvptx-none", List.of(), false, false),
        args("a.xnvptx-none.o", objects, il, "a.xnvptx-none", two, true, false),
        args(TMP + "/y.o", objects, g, TMP + "/a.xnvptx-none", two, false, true),
        args("b.o", List.of("a.o"), g, "./a.xamdgcn-amdhsa", gcn, true, true),
        args("c.o", objects, il, TMP + "/a.xnvptx-none", own, true, true),
        args(
            TMP + "/z.o",
            List.of("lib.a@0x1f0"),
            List.of("-fopenacc", "-g0"),
            "d",
            gcn,
            false,
            true));
  }

  private static MkoffloadArguments args(
      String output,
      List<String> inputs,
      List<String> il,
      String dumpbase,
      List<String> targetOptions,
      boolean saveTemps,
      boolean verbose) {
    return new MkoffloadArguments(
        output,
        inputs,
        il,
        dumpbase,
        targetOptions,
        Optional.of("lp64"),
        il.contains("-fopenmp"),
        il.contains("-fopenacc"),
        List.of(),
        saveTemps,
        verbose);
  }

  @ParameterizedTest
  @MethodSource("links")
  void typedArgumentsGiveTheKeyTheArgvFilterGave(MkoffloadArguments arguments) {
    ImageKeys keys =
        new ImageKeys(
            Map.of(),
            OfflinkFlags.NONE,
            Optional.empty(),
            DIR,
            TMP,
            new ScannedInputs(in -> ObjectScan.NOT_AN_OBJECT));
    assertEquals(
        filtered(arguments.argv("/usr/libexec/gcc/x86_64-linux-gnu/12/accel/t/mkoffload")),
        keys.keyArguments(arguments, INPUTS));
  }

  /** How the key read mkoffload's rendered argv before it took the typed values (the reference). */
  private static List<String> filtered(List<String> argv) {
    List<String> spellings = INPUTS.stream().map(InputFile::spelling).toList();
    List<String> out = new ArrayList<>();
    String temp = TMP + "/";
    for (int i = 1; i < argv.size(); i++) {
      String a = argv.get(i);
      if (a.equals("-o") && i + 1 < argv.size()) {
        i++;
      } else if (a.equals("-save-temps") || a.equals("-v")) {
        continue;
      } else if (spellings.contains(a)) {
        out.add("<input>");
      } else if (a.startsWith(temp)) {
        out.add("<temp>");
      } else {
        out.add(a);
      }
    }
    return out;
  }
}
