package org.offlink.ltowrapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.process.ResponseFiles;
import org.offlink.ltowrapper.io.OptsSectionName;

/** Argv goldens for mkoffload, WPA and LTRANS runs in a fixed environment. */
class LtoWrapperGoldenTest {
  static final String OFFLOAD_OPTS =
      "'-fno-openacc' '-fPIC' '-fcf-protection=none' '-foffload-abi=lp64' '-fopenmp'"
          + " '-fasynchronous-unwind-tables'";

  @TempDir Path dir;

  /** Creates files a child would produce: -o outputs and the ltrans list. */
  static FakeProcessRunner.Handler produce(int partitions) {
    return (argv, cwd) -> {
      for (int i = 0; i < argv.size() - 1; i++) {
        if (argv.get(i).equals("-o")) {
          Files.writeString(cwd.resolve(argv.get(i + 1)), "object");
        }
      }
      for (String a : argv) {
        if (a.startsWith("-fltrans-output-list=")) {
          StringBuilder list = new StringBuilder();
          for (int p = 0; p < partitions; p++) {
            String name = "./xl.ltrans" + p + ".o";
            Files.writeString(cwd.resolve(name), "partition");
            list.append(100 - p).append('\n').append(name).append('\n');
          }
          Files.writeString(cwd.resolve(a.substring(a.indexOf('=') + 1)), list.toString());
        }
      }
      return 0;
    };
  }

  private Harness offloadHarness(boolean saveTemps) throws IOException {
    Harness h = new Harness(dir);
    h.env.put(
        "COLLECT_GCC_OPTIONS",
        "'-v'"
            + (saveTemps ? " '-save-temps'" : "")
            + " '-fopenmp' '-o' 'x_nv' '-mtune=generic' '-march=x86-64' '-pthread'"
            + " '-foffload-options=nvptx-none=-latomic' '-dumpdir' 'x_nv.'");
    h.env.put("OFFLOAD_TARGET_NAMES", "nvptx-none:amdgcn-amdhsa");
    h.env.put("OFFLOAD_TARGET_DEFAULT", "1");
    h.env.put("COMPILER_PATH", h.mkoffload("gcc", "nvptx-none") + ":/nonexistent/");
    Files.createDirectories(dir.resolve("lib"));
    Files.writeString(dir.resolve("lib/crtoffloadtable.o"), "table");
    h.env.put("LIBRARY_PATH", dir.resolve("lib") + "/");
    h.object("x_nv-x.o", OptsSectionName.OFFLOAD, OFFLOAD_OPTS);
    h.write("x_nv.ofldlist", "1\nx_nv-x.o\n");
    h.write(
        "x_nv.lto_wrapper_args",
        "-fresolution=x_nv.res\n-flinker-output=pie\n-foffload-objects=x_nv.ofldlist\n");
    return h;
  }

  @Test
  void offloadOnlySaveTemps() throws IOException {
    Harness h = offloadHarness(true);
    assertEquals(0, h.run(produce(0), "@x_nv.lto_wrapper_args"));
    Golden.check("offload-only-save-temps.commands", h.commands());
    Golden.check("offload-only-save-temps.stdout", h.out());
    Golden.check("offload-only-save-temps.stderr", h.err());
    assertTrue(Files.exists(dir.resolve("x_nv.offload_args")), "save-temps keeps offload_args");
    assertTrue(Files.exists(dir.resolve("x_nv.ofldlist")), "save-temps keeps the list");
  }

  @Test
  void offloadOnlyTempNames() throws IOException {
    Harness h = offloadHarness(false);
    assertEquals(0, h.run(produce(0), "@x_nv.lto_wrapper_args"));
    Golden.check("offload-only.commands", h.commands());
    Golden.check("offload-only.stdout", h.out());
    assertFalse(Files.exists(dir.resolve("x_nv.ofldlist")), "list deleted after reading");
    for (String line : h.out.toString().split("\n")) {
      assertTrue(Files.exists(Path.of(line)), "handed-over file exists: " + line);
    }
    try (var files = Files.list(dir.resolve("tmp"))) {
      assertEquals(2, files.count(), "only the two printed files remain in TMPDIR");
    }
  }

  /** The argv of every mkoffload run (response files expanded) and the raw argv it got. */
  private static List<List<String>> mkoffloadRuns(Harness h, boolean raw) {
    List<List<String>> runs = new ArrayList<>();
    for (List<String> c : raw ? h.runner.rawCommands : h.runner.commands) {
      if (c.get(0).endsWith("/mkoffload")) {
        runs.add(c);
      }
    }
    return runs;
  }

  private Harness quietOffloadHarness(boolean saveTemps, boolean inProcess) throws IOException {
    Harness h = offloadHarness(saveTemps);
    h.env.put("COLLECT_GCC_OPTIONS", h.env.get("COLLECT_GCC_OPTIONS").replace("'-v' ", ""));
    h.mkoffloadInProcess = inProcess;
    return h;
  }

  @Test
  void anInProcessMkoffloadGetsItsArgvWithoutAResponseFile() throws IOException {
    Harness child = quietOffloadHarness(false, false);
    assertEquals(0, child.run(produce(0), "@x_nv.lto_wrapper_args"));
    List<String> throughFile = mkoffloadRuns(child, false).get(0);
    assertTrue(mkoffloadRuns(child, true).get(0).get(1).startsWith("@"), "a child gets @file");

    Harness inProcess = quietOffloadHarness(false, true);
    assertEquals(0, inProcess.run(produce(0), "@x_nv.lto_wrapper_args"));
    List<String> direct = mkoffloadRuns(inProcess, true).get(0);
    assertTrue(direct.stream().noneMatch(a -> a.startsWith("@")), direct.toString());
    assertEquals(
        inProcess.normalise(String.join(" ", throughFile)),
        inProcess.normalise(String.join(" ", direct)));
    Set<Path> printed = new HashSet<>();
    for (Harness h : List.of(child, inProcess)) {
      for (String line : h.out.toString(StandardCharsets.UTF_8).split("\n")) {
        printed.add(Path.of(line));
      }
    }
    try (var files = Files.list(dir.resolve("tmp"))) {
      assertEquals(printed, files.collect(Collectors.toSet()), "only printed files remain");
    }
  }

  @Test
  void anInProcessMkoffloadStillLeavesTheKeptResponseFileWithSaveTemps() throws IOException {
    Harness h = quietOffloadHarness(true, true);
    assertEquals(0, h.run(produce(0), "@x_nv.lto_wrapper_args"));
    Path kept = dir.resolve("x_nv.offload_args");
    assertTrue(Files.exists(kept), "save-temps keeps offload_args");
    // The file holds exactly the arguments the in-process run was given (not read back).
    List<String> raw = mkoffloadRuns(h, true).get(0);
    assertEquals(
        raw.subList(1, raw.size()),
        ResponseFiles.split(Files.readString(kept, StandardCharsets.UTF_8)));
  }

  @Test
  void missingMkoffloadWithoutDefaultIsFatal() throws IOException {
    Harness h = offloadHarness(false);
    h.env.remove("OFFLOAD_TARGET_DEFAULT");
    assertEquals(1, h.run(produce(0), "@x_nv.lto_wrapper_args"));
    assertEquals(
        "lto-wrapper: fatal error: could not find accel/amdgcn-amdhsa/mkoffload in "
            + "$DIR/gcc/:/nonexistent/ (consider using '-B')\ncompilation terminated.\n",
        h.err().substring(h.err().indexOf("lto-wrapper: fatal")));
    assertEquals("", h.out());
    try (var files = Files.list(dir.resolve("tmp"))) {
      assertEquals(0, files.count(), "the nvptx image is removed on failure");
    }
  }

  @Test
  void noImagesMeansNoCrtoffloadtable() throws IOException {
    Harness h = offloadHarness(false);
    h.env.put("OFFLOAD_TARGET_NAMES", "amdgcn-amdhsa");
    assertEquals(0, h.run(produce(0), "@x_nv.lto_wrapper_args"));
    assertEquals("", h.out());
    assertTrue(h.runner.commands.isEmpty());
  }

  @Test
  void mkoffloadFailureIsFatal() throws IOException {
    Harness h = offloadHarness(false);
    h.env.put("OFFLINK_FLAGS", "--offload-failure=fatal");
    assertEquals(1, h.run((argv, cwd) -> 1, "@x_nv.lto_wrapper_args"));
    assertTrue(
        h.err()
            .endsWith(
                "lto-wrapper: fatal error: $DIR/gcc//accel/nvptx-none/mkoffload returned 1 exit"
                    + " status\ncompilation terminated.\n"),
        h.err());
  }

  private Harness ltoHarness(String linkOptions) throws IOException {
    Harness h = new Harness(dir);
    h.env.put("COLLECT_GCC_OPTIONS", linkOptions);
    h.object("x.o", OptsSectionName.HOST_LTO, "'-fno-openmp' '-fPIC' '-O2' '-flto' '-mavx2'");
    h.object(
        "libx.a@0x53c",
        OptsSectionName.HOST_LTO,
        "'-fno-openmp' '-fPIC' '-O3' '-flto=4'",
        "'-fpic' '-g'");
    h.object("plain.o", OptsSectionName.OFFLOAD, "'-fopenmp'"); // no .gnu.lto_.opts: dropped
    h.earlyDebug.put("x.o", "debug");
    return h;
  }

  @Test
  void whoprSaveTemps() throws IOException {
    Harness h = ltoHarness("'-v' '-save-temps' '-o' 'xl' '-O1' '-pthread'");
    int status =
        h.run(
            produce(2),
            "-fresolution=xl.res",
            "-flinker-output=pie",
            "x.o",
            "libx.a@0x53c",
            "plain.o");
    assertEquals(0, status, h.err());
    // LTRANS jobs run concurrently (-flto=4): their order on stderr is not fixed, stdout's is.
    Golden.check("whopr-save-temps.commands", sorted(h.commands()));
    Golden.check("whopr-save-temps.stdout", h.out());
    Golden.check("whopr-save-temps.stderr", sorted(h.err()));
    assertTrue(Files.exists(dir.resolve("xl.ltrans_args")));
    // Parallel LTRANS (-flto=4): GCC 12 puts the commands in a makefile, not in response files.
    assertFalse(Files.exists(dir.resolve("xl.ltrans1.ltrans_args")));
  }

  static String sorted(String lines) {
    return String.join("\n", new java.util.TreeSet<>(List.of(lines.split("\n")))) + "\n";
  }

  @Test
  void whoprSerialWarning() throws IOException {
    Harness h = ltoHarness("'-o' 'xl'");
    h.hostOpts.put("libx.a@0x53c", List.of("'-flto'"));
    assertEquals(0, h.run(produce(3), "x.o", "libx.a@0x53c"));
    assertEquals(
        "lto-wrapper: warning: using serial compilation of 3 LTRANS jobs\n"
            + "lto-wrapper: note: see the '-flto' option documentation for more information\n",
        h.err());
    Golden.check("whopr-serial.commands", h.commands());
    Golden.check("whopr-serial.stdout", h.out());
    try (var files = Files.list(dir.resolve("tmp"))) {
      assertEquals(1, files.count(), "only the early debug object remains in TMPDIR");
    }
  }

  @Test
  void jobserverRequestedButUnavailable() throws IOException {
    Harness h = ltoHarness("'-o' 'xl' '-flto=jobserver'");
    h.env.put("LANG", "en_US.UTF-8");
    assertEquals(0, h.run(produce(2), "x.o"));
    assertEquals(
        "lto-wrapper: warning: jobserver is not available: \u2018MAKEFLAGS\u2019 environment"
            + " variable is unset\n"
            + "lto-wrapper: note: see the \u2018-flto\u2019 option documentation for more"
            + " information\n",
        h.err());
    assertTrue(h.commands().contains(" -fwpa=4 "), "falls back to -flto=auto with 4 CPUs");
  }

  @Test
  void partitionNoneIsPlainLto() throws IOException {
    Harness h = ltoHarness("'-o' 'a.out' '-flto-partition=none' '-g0'");
    assertEquals(0, h.run(produce(0), "x.o"));
    Golden.check("lto-partition-none.commands", h.commands());
    assertEquals("$TMP/ccXXXXXX.lto.o\n", h.out());
  }

  @Test
  void missingCollectGccIsFatal() {
    Harness h = new Harness(dir);
    h.env.remove("COLLECT_GCC");
    assertEquals(1, h.run(produce(0), "x.o"));
    assertEquals(
        "lto-wrapper: fatal error: environment variable 'COLLECT_GCC' must be set\n"
            + "compilation terminated.\n",
        h.err());
  }

  @Test
  void malformedCollectGccOptions() {
    Harness h = new Harness(dir);
    h.env.put("COLLECT_GCC_OPTIONS", "'-o' 'x");
    assertEquals(1, h.run(produce(0), "x.o"));
    assertEquals(
        "lto-wrapper: fatal error: malformed 'COLLECT_GCC_OPTIONS'\ncompilation terminated.\n",
        h.err());
  }

  @Test
  void collectAsOptionsBecomeXassemblerPairs() throws IOException {
    Harness h = ltoHarness("'-o' 'xl'");
    h.env.put("COLLECT_AS_OPTIONS", "--64 '-I a b'");
    assertEquals(0, h.run(produce(1), "x.o"));
    assertTrue(
        h.commands()
            .startsWith(
                "/usr/bin/gcc -xlto -c -fno-openmp -fPIC -O2 -mavx2 -Xassembler --64 -Xassembler -I a b "),
        h.commands());
  }
}
