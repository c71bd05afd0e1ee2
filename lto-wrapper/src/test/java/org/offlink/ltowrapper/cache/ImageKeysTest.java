package org.offlink.ltowrapper.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.io.ObjectScan;
import org.offlink.ltowrapper.io.ScannedInputs;

/**
 * What the key covers, with Debian's GCC 12 accel toolchain (installed by
 * scripts/setup-toolchain.sh) as the toolchain: inputs' IR bytes and mkoffload's options change it;
 * output and temp names, {@code -v} and {@code -save-temps} do not.
 */
class ImageKeysTest {
  private static final Path GCC12 = Path.of("/usr/lib/gcc/x86_64-linux-gnu/12");

  @TempDir Path dir;
  Map<String, String> env;
  Path input;

  @BeforeEach
  void toolchain() throws Exception {
    Assumptions.assumeTrue(
        Files.isDirectory(GCC12.resolve("accel/nvptx-none")),
        "needs gcc-12-offload-nvptx (scripts/setup-toolchain.sh installs it)");
    env = new HashMap<>();
    env.put("COLLECT_GCC", "gcc-12");
    env.put("COMPILER_PATH", GCC12 + "/");
    env.put("PATH", "/usr/bin:/bin");
    // The IR "section": bytes 4..12 of a plain file, as the scan would locate it.
    input = Files.write(dir.resolve("a.o"), "headIRIRIRIRtail".getBytes());
  }

  Optional<CacheKey> key(Map<String, String> environment, Path tmp, List<String> argv) {
    return key(environment, tmp, argv, dir);
  }

  Optional<CacheKey> key(Map<String, String> environment, Path tmp, List<String> argv, Path cwd) {
    ScannedInputs scans =
        new ScannedInputs(
            in ->
                new ObjectScan(
                    Optional.empty(),
                    Optional.of(List.of("'-fopenmp'")),
                    Optional.empty(),
                    List.of(new ObjectScan.SectionRange(".gnu.offload_lto_.decls", 4, 8)),
                    List.of()));
    try {
      return new ImageKeys(
              environment,
              org.offlink.bridge.OfflinkFlags.fromEnvironment(environment),
              org.offlink.bridge.gcc.GccInstallation.fromEnvironment(environment, cwd),
              cwd,
              tmp,
              scans)
          .key("nvptx-none", argv, List.of(InputFile.parse("a.o", dir)));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static List<String> argv(String... extra) {
    List<String> argv =
        new java.util.ArrayList<>(
            List.of(
                "/x/mkoffload",
                "-o",
                "/tmp/ccAAAAAA.target.o",
                "a.o",
                "-fopenmp",
                "-foffload-abi=lp64",
                "-dumpbase",
                "./p.xnvptx-none"));
    argv.addAll(List.of(extra));
    return argv;
  }

  @Test
  void namesThatChangeEveryLinkDoNotChangeTheKey() {
    CacheKey base = key(env, Path.of("/tmp"), argv()).orElseThrow();
    List<String> other = argv("-v");
    other.set(0, "/elsewhere/mkoffload");
    other.set(2, "/tmp/ccBBBBBB.target.o");
    other.add(1, "-save-temps");
    assertEquals(base, key(env, Path.of("/tmp"), other).orElseThrow());
  }

  @Test
  void theIrTheOptionsAndTheEnvironmentDo() throws Exception {
    CacheKey base = key(env, Path.of("/tmp"), argv()).orElseThrow();
    assertNotEquals(base, key(env, Path.of("/tmp"), argv("-O3")).orElseThrow(), "an option");
    List<String> renamed = argv();
    renamed.set(7, "./q.xnvptx-none");
    assertNotEquals(base, key(env, Path.of("/tmp"), renamed).orElseThrow(), "the dumpbase");
    Map<String, String> compare = new HashMap<>(env);
    compare.put("GCC_COMPARE_DEBUG", "1");
    assertNotEquals(base, key(compare, Path.of("/tmp"), argv()).orElseThrow(), "GCC_*");
    Map<String, String> wrapper = new HashMap<>(env);
    wrapper.put("OFFLINK_FLAGS", "--wrapper=c");
    assertNotEquals(base, key(wrapper, Path.of("/tmp"), argv()).orElseThrow(), "wrapper form");
    Files.write(input, "headIRIRIRIXtail".getBytes());
    assertNotEquals(base, key(env, Path.of("/tmp"), argv()).orElseThrow(), "one IR byte");
    Files.write(input, "HEADIRIRIRIRTAIL".getBytes());
    assertEquals(base, key(env, Path.of("/tmp"), argv()).orElseThrow(), "bytes outside the IR");
  }

  @Test
  void aDebugImageIsKeyedToItsFolderAndTheToolchainMustBeKnown() {
    CacheKey g = key(env, Path.of("/tmp"), argv("-g")).orElseThrow();
    assertNotEquals(g, key(env, Path.of("/tmp"), argv("-g"), dir.resolve("sub")).orElseThrow());
    assertEquals(
        key(env, Path.of("/tmp"), argv()).orElseThrow(),
        key(env, Path.of("/tmp"), argv(), dir.resolve("sub")).orElseThrow(),
        "without -g the folder does not matter");
    Map<String, String> nowhere = new HashMap<>(env);
    nowhere.put("COMPILER_PATH", dir.toString());
    assertEquals(Optional.empty(), key(nowhere, Path.of("/tmp"), argv()));
  }
}
