package org.offlink.ltowrapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.offlink.bridge.gcc.OffloadOptionException;
import org.offlink.bridge.gcc.OffloadOptions;
import org.offlink.ltowrapper.io.OptsSectionName;
import org.offlink.ltowrapper.offload.ImageRequest;

/**
 * An in-process mkoffload is handed typed arguments ({@link OffloadOptions#of}) where a program
 * reads its command line ({@link OffloadOptions#parse}): for every link shape, the two must give
 * the same options, or the same error, so that the argv rendered for {@code -v}, the response file
 * and a mkoffload run as a program says exactly what the in-process run does.
 */
class TypedMkoffloadBoundaryTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "'-save-temps' '-v'",
        "'-foffload-options=-v'",
        "'-foffload-options=nvptx-none=-save-temps -O3'",
        "'-foffload-options=-foffload-abi=ilp32'",
        "'-foffload-options=-fopenacc'",
        "'-foffload-options=-dumpbase' '-foffload-options=elsewhere'",
        "'-g' '-fdiagnostics-color=never'"
      })
  void typedArgumentsReadAsTheirCommandLine(String linkOptions) throws IOException {
    for (String ilOptions :
        List.of(
            "'-fopenmp' '-foffload-abi=lp64'",
            "'-fopenacc' '-foffload-abi=lp64' '-fPIC'",
            "'-fopenmp' '-foffload-abi=ilp32' '-fcf-protection=none'",
            "'-fopenmp' '-foffload-abi=lp64' '-foffload-abi-host-opts=-m64'",
            "'-fopenmp'",
            "'-fno-openmp' '-foffload-abi=lp64'")) {
      List<ImageRequest> requests = link(linkOptions, ilOptions);
      assertFalse(requests.isEmpty(), linkOptions + " / " + ilOptions);
      for (ImageRequest r : requests) {
        List<String> argv = r.argv();
        assertEquals(
            read(() -> OffloadOptions.parse(argv.subList(1, argv.size()))),
            read(() -> OffloadOptions.of(r.arguments())),
            String.join(" ", argv));
      }
    }
  }

  private List<ImageRequest> link(String linkOptions, String ilOptions) throws IOException {
    Path work = java.nio.file.Files.createTempDirectory(dir, "link");
    Harness h = new Harness(work);
    h.mkoffloadInProcess = true;
    h.env.put("COLLECT_GCC_OPTIONS", "'-fopenmp' '-o' 'x' " + linkOptions + " '-dumpdir' 'x.'");
    h.env.put("OFFLOAD_TARGET_NAMES", "nvptx-none");
    h.env.put("OFFLOAD_TARGET_DEFAULT", "1");
    h.env.put("COMPILER_PATH", h.mkoffload("gcc", "nvptx-none"));
    h.object("x-x.o", OptsSectionName.OFFLOAD, ilOptions);
    h.write("x.ofldlist", "1\nx-x.o\n");
    h.run(LtoWrapperGoldenTest.produce(0), "-fresolution=x.res", "-foffload-objects=x.ofldlist");
    return h.requests;
  }

  /** The options, or the error's text. */
  private static String read(Reading reading) {
    try {
      return reading.get().toString();
    } catch (OffloadOptionException e) {
      return "error: " + e.getMessage();
    }
  }

  @FunctionalInterface
  private interface Reading {
    OffloadOptions get() throws OffloadOptionException;
  }
}
