package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.util.JsonFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.ltowrapper.report.proto.Image;
import org.offlink.ltowrapper.report.proto.LinkReport;

/**
 * Reproducer bundles through the real driver (issue 17's acceptance): a passing link (archive
 * members, host LTO, both targets) and two failing ones (gfx908, whose accel libraries Debian 12
 * lacks; nvptx code calling libm without {@code -foffload-options=-lm}) are bundled by offlink's
 * lto-wrapper, their objects deleted, and {@code offlink replay} run from another directory: the
 * same outcome and byte-identical images (compared with the link's own {@code OFFLINK_REPORT}).
 * {@code offlink explain} names the failing step and the fix; a tampered digest is caught.
 */
class ReproducerReplayIT {
  @TempDir Path work;

  private record Run(int status, String output) {}

  private Run run(Path cwd, Map<String, String> extraEnv, List<String> argv) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(argv).directory(cwd.toFile()).redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    env.clear();
    env.put("PATH", Toolchain.SAFE_PATH); // no /usr/local/bin: its ptxas rejects GCC 12's PTX
    env.put("LANG", "C");
    env.put("TMPDIR", Files.createDirectories(work.resolve("tmp")).toString());
    env.put("OFFLINK_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    env.putAll(extraEnv);
    LinkMode.apply(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "timed out: " + argv);
    return new Run(p.exitValue(), out);
  }

  private Run ok(Path cwd, List<String> argv) throws Exception {
    Run r = run(cwd, Map.of(), argv);
    assertEquals(0, r.status(), argv + "\n" + r.output());
    return r;
  }

  private static String offlink() {
    return Toolchain.offlinkDist().resolve("bin/offlink").toString();
  }

  private static List<String> link(String... args) {
    List<String> argv = new ArrayList<>();
    argv.add("gcc-12");
    argv.add("-B");
    argv.add(Toolchain.offlinkDist().resolve("libexec/offlink") + "/");
    argv.addAll(List.of(args));
    return argv;
  }

  private static LinkReport report(Path json) throws IOException {
    LinkReport.Builder b = LinkReport.newBuilder();
    JsonFormat.parser().merge(Files.readString(json), b);
    return b.build();
  }

  /** The scratch folder {@code replay --keep} printed. */
  private static Path kept(String output) {
    String marker = "replay: scratch folder kept: ";
    int at = output.indexOf(marker);
    assertTrue(at >= 0, output);
    return Path.of(output.substring(at + marker.length()).lines().findFirst().orElseThrow());
  }

  @Test
  void aPassingLinkReplaysElsewhereWithByteIdenticalImages() throws Exception {
    CorpusProgram program = Corpus.program("c_static_lib");
    Path src = Files.createDirectories(work.resolve("src"));
    List<String> archived = new ArrayList<>();
    for (String s : program.staticSources()) {
      archived.add(compileLto(src, program.directory().resolve(s)));
    }
    List<String> ar = new ArrayList<>(List.of("ar", "rcs", "libcorpus.a"));
    ar.addAll(archived);
    ok(src, ar);
    compileLto(src, program.directory().resolve("main.c"));
    Path bundle = work.resolve("bundles/ok.tar");
    Run linked =
        run(
            src,
            Map.of(
                "OFFLINK_REPRODUCE",
                bundle.toString(),
                "OFFLINK_REPORT",
                work.resolve("orig.json").toString()),
            link(
                "-fopenmp",
                "-O2",
                "-flto",
                "-foffload=nvptx-none,amdgcn-amdhsa",
                "-foffload-options=amdgcn-amdhsa=-march=gfx906",
                "main.o",
                "libcorpus.a",
                "-o",
                work.resolve("prog").toString()));
    assertEquals(0, linked.status(), linked.output());
    assertTrue(linked.output().contains("reproducer bundle written to " + bundle), linked.output());
    LinkReport original = report(work.resolve("orig.json"));
    assertEquals(2, original.getImagesCount(), original.toString());
    assertTrue(
        original.getInputsList().stream().anyMatch(i -> i.getSpelling().contains("libcorpus.a@")),
        "archive members were inputs: " + original.getInputsList());
    Trees.delete(src); // the replay must live on the bundle alone

    Path elsewhere = Files.createDirectories(work.resolve("elsewhere"));
    Run replay =
        run(elsewhere, Map.of(), List.of(offlink(), "replay", "--keep", bundle.toString()));
    assertEquals(0, replay.status(), replay.output());
    assertTrue(
        replay.output().contains("result: the same outcome and byte-identical images"),
        replay.output());
    Path scratch = kept(replay.output());
    LinkReport replayed = report(scratch.resolve("run/replay-report.json"));
    assertTrue(replayed.getWorkingDirectory().startsWith(scratch.toString()), "ran in scratch");
    assertEquals(digests(original), digests(replayed));
    assertEquals(0, replayed.getExitStatus());
    Trees.delete(scratch);
  }

  /** Compiles {@code source} with -fopenmp -O2 -flto into {@code dir}; returns the object name. */
  private String compileLto(Path dir, Path source) throws Exception {
    String name = source.getFileName().toString();
    String object = name.substring(0, name.lastIndexOf('.')) + ".o";
    ok(dir, List.of("gcc-12", "-fopenmp", "-O2", "-flto", "-c", source.toString(), "-o", object));
    return object;
  }

  private static List<String> digests(LinkReport r) {
    return r.getImagesList().stream().map(i -> i.getTarget() + " " + i.getSha256()).toList();
  }

  /** Links {@code source} so that it fails, then checks the failure's bundle, replay, explain. */
  private String failingLinkReplays(String source, String name, String... options)
      throws Exception {
    Path src = Files.createDirectories(work.resolve("src-" + name));
    Files.writeString(src.resolve(name + ".c"), source);
    ok(src, List.of("gcc-12", "-fopenmp", "-O2", "-c", name + ".c", "-o", name + ".o"));
    List<String> args = new ArrayList<>(List.of(options));
    args.addAll(List.of("-fopenmp", name + ".o", "-o", name, "-lm"));
    Path fails = work.resolve("fails");
    Run linked =
        run(
            src,
            Map.of("OFFLINK_REPRODUCE_ON_FAILURE", fails.toString()),
            link(args.toArray(String[]::new)));
    assertNotEquals(0, linked.status(), linked.output());
    Path bundle = fails.resolve("offlink-reproduce-" + name + ".tar");
    assertTrue(Files.isRegularFile(bundle), linked.output());
    Trees.delete(src);

    Path elsewhere = Files.createDirectories(work.resolve("elsewhere-" + name));
    Run replay = run(elsewhere, Map.of(), List.of(offlink(), "replay", bundle.toString()));
    assertEquals(0, replay.status(), replay.output());
    assertTrue(replay.output().contains("exit status: 1 (same as recorded)"), replay.output());
    assertTrue(replay.output().contains("failed (same as recorded)"), replay.output());
    assertTrue(replay.output().contains("result: the same outcome"), replay.output());
    try (Stream<Path> left = Files.list(work.resolve("tmp"))) {
      assertFalse(
          left.anyMatch(p -> p.getFileName().toString().startsWith("offlink-replay-")),
          "the scratch folder is removed without --keep");
    }
    Run explain = ok(elsewhere, List.of(offlink(), "explain", bundle.toString()));
    assertTrue(explain.output().contains("Outcome: FAILED (exit status 1)"), explain.output());
    return explain.output();
  }

  @Test
  void aGfx908LinkFailsTheSameWayOnReplayAndIsExplained() throws Exception {
    String explain =
        failingLinkReplays(
            "int main(void) { int x = 0;\n#pragma omp target map(tofrom: x)\n x = 1;\n return !x; }\n",
            "gfx908",
            "-foffload=amdgcn-amdhsa",
            "-foffload-options=-march=gfx908");
    assertTrue(explain.contains("chosen by -foffload= on the gcc command line"), explain);
    assertTrue(explain.contains("  link: -foffload-options=-march=gfx908"), explain);
    assertTrue(explain.contains("  accel compile for amdgcn-amdhsa (exit status 1)"), explain);
    assertTrue(explain.contains("incompatible mach"), explain);
    assertTrue(explain.contains("hint: this GCC's amdgcn libraries are not built"), explain);
  }

  @Test
  void aLinkMissingOffloadLibmFailsTheSameWayOnReplayAndIsExplained() throws Exception {
    String explain =
        failingLinkReplays(
            String.join(
                "\n",
                "#include <math.h>",
                "int main(void) { double x[8];",
                "  for (int i = 0; i < 8; i++) x[i] = i;",
                "#pragma omp target map(tofrom: x)",
                "  for (int i = 0; i < 8; i++) x[i] = pow(x[i], 0.3);",
                "  return x[1] != 1.0; }",
                ""),
            "nolibm",
            "-foffload=nvptx-none");
    assertTrue(explain.contains("  accel compile for nvptx-none (exit status 1)"), explain);
    assertTrue(explain.contains("unresolved symbol pow"), explain);
    assertTrue(
        explain.contains("hint: the device code calls libm: link with -foffload-options=-lm"));
  }

  @Test
  void aReplayThatDiffersSaysSo() throws Exception {
    Path src = Files.createDirectories(work.resolve("src-t"));
    Files.writeString(
        src.resolve("t.c"),
        "int main(void) { int x = 0;\n#pragma omp target map(tofrom: x)\n x = 1;\n return !x; }\n");
    ok(src, List.of("gcc-12", "-fopenmp", "-c", "t.c", "-o", "t.o"));
    Path bundle = work.resolve("t.tar");
    Run linked =
        run(
            src,
            Map.of("OFFLINK_REPRODUCE", bundle.toString()),
            link("-fopenmp", "-foffload=nvptx-none", "t.o", "-o", "t"));
    assertEquals(0, linked.status(), linked.output());
    Path extracted = Files.createDirectories(work.resolve("x"));
    ok(extracted, List.of("tar", "xf", bundle.toString()));
    Path reportJson = extracted.resolve("t/report.json");
    LinkReport recorded = report(reportJson);
    Image image = recorded.getImages(0);
    String tampered = Files.readString(reportJson).replace(image.getSha256(), "0".repeat(64));
    Files.writeString(reportJson, tampered);

    Run replay =
        run(work, Map.of(), List.of(offlink(), "replay", extracted.resolve("t").toString()));
    assertEquals(1, replay.status(), replay.output());
    assertTrue(replay.output().contains("image nvptx-none: "), replay.output());
    assertTrue(replay.output().contains(") DIFFERENT"), replay.output());
    assertTrue(replay.output().contains("result: the replay DIFFERS"), replay.output());
    Run script =
        run(work, Map.of("OFFLINK", offlink()), List.of(extracted.resolve("t/replay").toString()));
    assertEquals(1, script.status(), "the replay script runs offlink replay on its folder");
  }
}
