package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.offlink.it.RegistrationAssertions.assertBuilt;
import static org.offlink.it.RegistrationAssertions.assertLinkRefused;
import static org.offlink.it.RegistrationAssertions.assertMatchesCorpus;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.offlink.ltowrapper.cache.NginxWebDav;
import org.offlink.streamer.inspect.BinaryInspector;
import org.offlink.streamer.inspect.GcnKernelEntry;
import org.offlink.streamer.inspect.GcnTargetData;
import org.offlink.streamer.inspect.InspectedObject;
import org.offlink.streamer.inspect.NvptxTargetData;
import org.offlink.streamer.inspect.RegisteredImage;

/**
 * {@code OFFLINK_FLAGS=--device-jobs=2} (issue 29, docs/parallel-device-compile.md) on real GCC 12
 * links: every corpus program, for nvptx and gfx906 in one link, links, prints what stock prints
 * and registers the same tables (the spy: versions, host tables, function and variable names in
 * order, launch dims; not the image bytes, which differ by design, nor gcn register counts, which
 * inlining across partitions changes). The device code is checked by what stands for its loaders:
 * nvptx chunks must compile with CUDA's {@code ptxas} and link with {@code nvlink}; gcn kernels
 * must each have a symbol, a descriptor and metadata in the HSACO, whose variable table must list
 * the variables stock's lists, in its order. Statics of the same name in two units make their
 * partitions compile together (stock's {@code .lto_priv} names), and a change to one unit's device
 * code recompiles that unit's partition only.
 */
class DeviceJobsIT {
  private static final Pattern PARTITIONS =
      Pattern.compile(
          "(?m)^(?:\\S+ )?mkoffload: (\\S+): device partitions: (\\d+) for (\\d+) inputs, (\\d+)"
              + " compiled, (\\d+) from the cache$");

  @TempDir static Path scratch;
  private static Toolchain toolchain;
  private static Path dist;

  @BeforeAll
  static void setUp() throws IOException {
    dist = Toolchain.offlinkDist();
    toolchain = Toolchain.create(scratch);
  }

  static Stream<CorpusProgram> corpus() {
    return Corpus.all().stream();
  }

  private static ToolDir deviceJobs(Path cache) {
    return new ToolDir("offlink --device-jobs=2", Optional.of(dist.resolve("libexec/offlink")))
        .withEnvironment("OFFLINK_FLAGS", "--device-jobs=2")
        .withEnvironment("OFFLINK_CACHE_DIR", cache.toString());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void everyProgramLinksRunsAndRegistersLikeStock(CorpusProgram program, @TempDir Path work)
      throws IOException {
    TargetSet targets = TargetSet.both("gfx906");
    BuildResult stockBuild = toolchain.build(program, targets, ToolDir.stock(), work);
    if (program.linkFails()) {
      assertLinkRefused(stockBuild);
      assertLinkRefused(
          toolchain.relink(program, targets, deviceJobs(work.resolve("cache")), work, List.of()));
      return;
    }
    assertBuilt(stockBuild);
    RunResult stock = toolchain.run(stockBuild);
    assertMatchesCorpus(stock);
    BuildResult build =
        toolchain.relink(program, targets, deviceJobs(work.resolve("cache")), work, List.of("-v"));
    assertBuilt(build);
    RunResult ours = toolchain.run(build);
    assertEquals(stock.exitStatus(), ours.exitStatus(), program + ": exit");
    assertEquals(stock.stdout(), ours.stdout(), program + ": stdout");
    assertEquals(tables(stock), tables(ours), program + ": registered tables");
    for (Matcher m = PARTITIONS.matcher(build.log()); m.find(); ) {
      assertTrue(Integer.parseInt(m.group(3)) >= 2, program + ": partitioned " + m.group());
    }
    checkDeviceCode(
        program.name(),
        ours,
        images(work.resolve(Toolchain.EXECUTABLE)),
        work.resolve("device-check"));
  }

  /** The images {@code program} registers, read from the executable. */
  static List<RegisteredImage> images(Path program) throws IOException {
    List<RegisteredImage> all = new ArrayList<>();
    for (InspectedObject o : BinaryInspector.inspect(program)) {
      all.addAll(o.images());
    }
    return all;
  }

  /**
   * The loaders' view of the images the program registered: nvptx chunks through ptxas and nvlink;
   * gcn kernels with their symbols, descriptors and metadata, and the HSACO's variable table in the
   * host table's order (the spy's {@code host var} lines, against {@link #hostName}).
   */
  private static void checkDeviceCode(
      String what, RunResult run, List<RegisteredImage> images, Path dir) throws IOException {
    for (RegisteredImage image : images) {
      if (image instanceof NvptxTargetData n && DeviceCode.cudaPresent()) {
        DeviceCode.assertPtxLinks(what, n.chunks(), dir.resolve("nvptx"));
      } else if (image instanceof GcnTargetData g && DeviceCode.llvmPresent()) {
        List<String> kernels = g.kernels().stream().map(GcnKernelEntry::name).toList();
        List<String> table =
            DeviceCode.assertKernelsAndVarTable(what, g.image(), kernels, dir.resolve("gcn"));
        List<String> host = hostVariables(run, 8);
        assertEquals(
            host,
            table.stream().map(DeviceJobsIT::hostName).toList(),
            what + ": .offload_var_table against the host table");
      }
    }
  }

  /**
   * The host name of a device table entry: GCC's device names add {@code .lto_priv.N} to renamed
   * statics and point {@code declare target link} entries at {@code <var>.linkptr} ({@code
   * offload_handle_link_vars}, gcc/lto/lto.cc@12:430-455).
   */
  private static String hostName(String device) {
    return device.replaceFirst("\\.lto_priv\\.\\d+$", "").replaceFirst("\\.linkptr$", "");
  }

  /** The host table's variable names of the executable's registration for device {@code type}. */
  private static List<String> hostVariables(RunResult run, int type) {
    for (Registration r : run.dump().registered()) {
      if (r.deviceType() == type && r.module().equals(Toolchain.EXECUTABLE)) {
        return r.names("host var");
      }
    }
    return List.of();
  }

  /**
   * The spy's dump without what differs by design: the PTX chunks and HSACO bytes (their count,
   * sizes, digests) and the gcn kernels' register counts.
   */
  static List<String> tables(RunResult run) {
    return tables(run.dump().text());
  }

  /** {@link #tables(RunResult)} of a spy's dump text. */
  static List<String> tables(String spyText) {
    List<String> out = new ArrayList<>();
    for (String l : spyText.lines().toList()) {
      if (l.startsWith(" nvptx ptx[")) {
        continue;
      }
      String kept =
          l.startsWith(" nvptx ptx=")
              ? l.replaceFirst("ptx=\\d+ ", "")
              : l.startsWith(" gcn image ")
                  ? l.replaceFirst("size=\\d+ sha256=\\S+ ", "")
                  : l.startsWith(" gcn kernel ")
                      ? l.replaceFirst(" sgpr=-?\\d+ vgpr=-?\\d+$", "")
                      : l;
      out.add(kept);
    }
    return out;
  }

  @Test
  void staticsOfOneNameInTwoUnitsAreCompiledTogether(@TempDir Path work) throws IOException {
    CorpusProgram program = Corpus.program("c_static_names_tus");
    TargetSet targets = TargetSet.both("gfx906");
    BuildResult stockBuild = toolchain.build(program, targets, ToolDir.stock(), work);
    assertBuilt(stockBuild);
    RunResult stock = toolchain.run(stockBuild);
    BuildResult build =
        toolchain.relink(program, targets, deviceJobs(work.resolve("cache")), work, List.of("-v"));
    assertBuilt(build);
    RunResult ours = toolchain.run(build);
    assertEquals(stock.stdout(), ours.stdout());
    assertEquals(tables(stock), tables(ours));
    assertTrue(
        ours.dump().text().contains(" nvptx var cnt$lto_priv$1"),
        "stock's renamed statics: " + ours.dump().text());
    // names_a and names_b share statics; names_c only public names
    for (String target : List.of("nvptx-none", "amdgcn-amdhsa")) {
      assertTrue(
          build.log().contains(target + ": device partitions: symbols clash, joining 3"),
          build.log());
      assertTrue(build.log().contains(target + ": device partitions: 2 for 3 inputs"), build.log());
    }
  }

  // Partition keys include the accel folders' stamps, which ImageCacheIT changes for a while.
  @Test
  @ResourceLock(value = "gcc-12-accel-nvptx-none", mode = ResourceAccessMode.READ)
  void aChangeToOneUnitRecompilesItsPartitionOnly(@TempDir Path work) throws IOException {
    int units = 6;
    for (int i = 0; i < units; i++) {
      writeUnit(work, i, 0);
      compile(work, "u" + i + ".c");
    }
    Files.writeString(
        work.resolve("main.c"),
        "#include <stdio.h>\nint k0(int), k1(int), k2(int), k3(int), k4(int), k5(int);\n"
            + "int main(void) { printf(\"%d %d %d %d %d %d\\n\", k0(1), k1(2), k2(3), k3(4),"
            + " k4(5), k5(6)); return 0; }\n");
    compile(work, "main.c");
    ToolDir ours = deviceJobs(work.resolve("cache"));
    assertEquals(List.of("6 6 0", "6 6 0"), partitions(link(work, ours, "prog")));
    // the image cache answers a relink of the same objects before any partition is looked at
    assertEquals(List.of(), partitions(link(work, ours, "prog")));
    writeUnit(work, 3, 1);
    compile(work, "u3.c");
    assertEquals(List.of("6 1 5", "6 1 5"), partitions(link(work, ours, "prog")));
    String changed = run(work, "prog");
    link(work, ToolDir.stock(), "stock");
    assertEquals(run(work, "stock"), changed);
  }

  // Another machine's link: an empty local cache, the partitions from the remote one.
  @Test
  @ResourceLock(value = "gcc-12-accel-nvptx-none", mode = ResourceAccessMode.READ)
  void aRemoteCacheServesTheUnchangedPartitions(@TempDir Path work) throws Exception {
    try (NginxWebDav nginx = NginxWebDav.startOrSkip(work.resolve("nginx"))) {
      String remote = nginx.base("cache") + "/device-jobs";
      for (int i = 0; i < 6; i++) {
        writeUnit(work, i, 0);
        compile(work, "u" + i + ".c");
      }
      Files.writeString(work.resolve("main.c"), "int main(void) { return 0; }\n");
      compile(work, "main.c");
      ToolDir first =
          deviceJobs(work.resolve("cache-a")).withEnvironment("OFFLINK_REMOTE_CACHE", remote);
      assertEquals(List.of("6 6 0", "6 6 0"), partitions(link(work, first, "prog")));
      writeUnit(work, 3, 1);
      compile(work, "u3.c");
      ToolDir second =
          deviceJobs(work.resolve("cache-b")).withEnvironment("OFFLINK_REMOTE_CACHE", remote);
      assertEquals(List.of("6 1 5", "6 1 5"), partitions(link(work, second, "prog")));
    }
  }

  private static void writeUnit(Path work, int i, int version) throws IOException {
    Files.writeString(
        work.resolve("u" + i + ".c"),
        "#pragma omp declare target\nstatic int h(int x) { return x * "
            + (i + 2)
            + " + "
            + version
            + "; }\n#pragma omp end declare target\nint k"
            + i
            + "(int n) { int r = 0;\n#pragma omp target map(tofrom: r)\n"
            + "  for (int j = 0; j < n * 10; j++) r += h(j);\n  return r; }\n");
  }

  private static void compile(Path work, String source) throws IOException {
    step(work, ToolDir.stock(), List.of("gcc-12", "-fopenmp", "-O2", "-c", source));
  }

  private static String link(Path work, ToolDir tools, String output) throws IOException {
    List<String> argv =
        new ArrayList<>(
            List.of(
                "gcc-12",
                "-fopenmp",
                "-v",
                "-foffload=nvptx-none,amdgcn-amdhsa",
                "-foffload-options=amdgcn-amdhsa=-march=gfx906"));
    argv.addAll(tools.driverOptions());
    for (int i = 0; i < 6; i++) {
      argv.add("u" + i + ".o");
    }
    argv.addAll(List.of("main.o", "-o", output));
    return step(work, tools, argv);
  }

  private static String step(Path work, ToolDir tools, List<String> argv) throws IOException {
    var r = toolchain.step(argv, tools, work);
    assertEquals(0, r.exitStatus(), () -> argv + "\n" + r.stderr());
    return r.stderr();
  }

  private static String run(Path work, String program) throws IOException {
    var r =
        new LocalProcessRunner()
            .run(
                org.offlink.bridge.process.Command.of(
                    List.of(work.resolve(program).toString()),
                    java.util.Map.of("PATH", Toolchain.SAFE_PATH),
                    work));
    assertEquals(0, r.exitStatus(), r.stderr());
    return r.stdout();
  }

  /** "partitions compiled cached" per target line of a link's -v output. */
  private static List<String> partitions(String stderr) {
    List<String> out = new ArrayList<>();
    for (Matcher m = PARTITIONS.matcher(stderr); m.find(); ) {
      out.add(m.group(2) + " " + m.group(4) + " " + m.group(5));
    }
    return out;
  }
}
