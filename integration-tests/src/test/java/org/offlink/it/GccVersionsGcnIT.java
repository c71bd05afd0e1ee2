package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;

/**
 * offlink's gcn mkoffload against stock {@code gcc-<V>}'s, for GCC 13 (trixie), 14 (trixie), 15 and
 * 16 (sid) in their Debian roots (scripts/setup-toolchain.sh --gcc V). The objects of each program
 * are compiled once; then they are linked three times with the root's own {@code gcc-<V>}/{@code
 * g++-<V>}/{@code gfortran-<V>}: stock, with {@code -B} naming a folder that holds only offlink's
 * {@code accel/amdgcn-amdhsa/mkoffload} (stock lto-wrapper runs it; the host JDK is bind-mounted
 * into the root for its launcher), and with {@code -B} naming offlink's tree (its lto-wrapper runs
 * the mkoffload in-process). The programs run with host fallback under the registration spy: same
 * exit status, same output (the corpus expectation), the same registrations line for line (version
 * word, requires mask, indirect-function count, kernels with dims and register counts, variables,
 * the HSACO's size, SHA-256 and e_flags, i.e. a byte-identical image, and what the wrapper's
 * constructor left in HSA_XNACK and GCN_STACK_SIZE), the same mkoffload warnings. offlink's link
 * leaves nothing in its TMPDIR and its executable has no TEXTREL.
 *
 * <p>Programs: corpus C (OpenMP, several TUs with declare target variables, OpenACC), C++ and
 * Fortran (OpenMP, OpenACC) for gfx906 (16: the default gfx90a, Debian's 16 having no gfx906
 * libraries); the C program also with {@code -no-pie}, {@code -flto}, {@code -g}, {@code
 * -mstack-size=65536} and (14+) for gfx90a; and a program with {@code omp requires
 * unified_shared_memory}, a {@code declare target} variable and (14+) a {@code declare target
 * indirect} function. For 16 also every other device its multilibs serve (gfx908 and the four
 * generic targets, some with {@code -g}), XNACK settings that make the wrapper set HSA_XNACK, and
 * the devices it refuses (the same diagnostic as stock).
 */
class GccVersionsGcnIT {
  private static final String GFX906 = "-foffload-options=amdgcn-amdhsa=-march=gfx906";

  /** The requires/indirect program (-DINDIRECT on 14+). */
  private static final String FEATURES =
      StockGccVersionsIT.featuresProgram("unified_shared_memory");

  /** One link to compare: a program, its model flags, extra compile+link flags, link-only flags. */
  private record Case(
      String name,
      Language language,
      List<String> sources,
      List<String> modelFlags,
      List<String> flags,
      List<String> linkFlags,
      String expectedOutput) {
    /** The corpus C program c_target_scalar linked for {@code -march=arch}. */
    static Case scalarFor(String name, String arch) {
      return of(
          name,
          "c_target_scalar",
          List.of(),
          List.of("-foffload-options=amdgcn-amdhsa=-march=" + arch));
    }

    static Case of(String name, String program, List<String> extra, List<String> linkExtra) {
      CorpusProgram p = Corpus.program(program);
      List<String> flags = new ArrayList<>(p.flags());
      flags.addAll(extra);
      return new Case(
          name,
          p.language(),
          p.sources().stream().map(s -> p.directory().resolve(s).toString()).toList(),
          p.model().flags(),
          flags,
          linkExtra,
          p.expectedOutput());
    }
  }

  /**
   * The link flags choosing the device most cases use: gfx906 (13-15), 16's default gfx90a (no
   * option: Debian's 16 has no gfx906 libraries).
   */
  private static List<String> mainDevice(int major) {
    return major >= 16 ? List.of() : List.of(GFX906);
  }

  private static String march(String arch) {
    return "-foffload-options=amdgcn-amdhsa=-march=" + arch;
  }

  private static List<Case> cases(int major) {
    List<String> main = mainDevice(major);
    List<Case> cases = new ArrayList<>();
    for (String program :
        List.of(
            "c_target_scalar",
            "c_declare_target_tus",
            "c_acc_parallel",
            "cpp_templates",
            "f_target",
            "f_acc_parallel")) {
      cases.add(Case.of(program, program, List.of(), main));
    }
    String c = "c_target_scalar";
    cases.add(Case.of(c + "-no-pie", c, List.of(), concat(main, List.of("-no-pie"))));
    cases.add(Case.of(c + "-flto", c, List.of("-flto"), main));
    cases.add(Case.of(c + "-g", c, List.of("-g"), main));
    // 13+'s stack size constructor (16: in mkoffload_setup): offlink compiles GCC's C form for it.
    String stackSize = "-foffload-options=amdgcn-amdhsa=-mstack-size=65536";
    cases.add(Case.of(c + "-stack-size", c, List.of(), concat(main, List.of(stackSize))));
    if (major >= 14) {
      // Debian's GCC 13 gfx90a multilib has no libgomp.a (stock fails: incompatible mach).
      cases.add(Case.scalarFor(c + "-gfx90a", "gfx90a"));
    }
    if (major >= 16) {
      cases.addAll(gcc16DeviceCases(c, stackSize));
    }
    List<String> features = major >= 14 ? List.of("-O2", "-DINDIRECT") : List.of("-O2");
    cases.add(features("features", features, main));
    if (major >= 16) {
      // unified_shared_memory on gfx908, whose XNACK is off: 16's mkoffload warns, HSA_XNACK=0.
      cases.add(features("features-gfx908", features, List.of(march("gfx908"))));
    }
    return cases;
  }

  /**
   * GCC 16's other devices: gfx908 and the generic targets, with and without -g (generic targets
   * have code object v6 debug objects), and the XNACK settings for which 16's wrapper sets
   * HSA_XNACK: gfx908's default off, on and off on gfx90a, on on gfx9-generic (any on gfx908 leaves
   * it alone); gfx908 with a stack size has both actions in mkoffload_setup.
   */
  private static List<Case> gcc16DeviceCases(String c, String stackSize) {
    List<Case> cases = new ArrayList<>();
    for (String arch :
        List.of("gfx908", "gfx9-generic", "gfx9-4-generic", "gfx10-3-generic", "gfx11-generic")) {
      cases.add(Case.scalarFor(c + "-" + arch, arch));
    }
    for (String arch : List.of("gfx908", "gfx9-generic", "gfx9-4-generic")) {
      cases.add(Case.of(c + "-g-" + arch, c, List.of("-g"), List.of(march(arch))));
    }
    // Debian's gfx908 libraries are XNACK off: stock cannot link gfx908 -mxnack=on (see the
    // refusal test).
    String xnack = "-foffload-options=amdgcn-amdhsa=-mxnack=";
    for (String setting : List.of("gfx90a on", "gfx90a off", "gfx908 any", "gfx9-generic on")) {
      String[] w = setting.split(" ");
      cases.add(
          Case.of(
              c + "-" + w[0] + "-xnack-" + w[1], c, List.of(), List.of(march(w[0]), xnack + w[1])));
    }
    cases.add(Case.of(c + "-gfx908-stack-size", c, List.of(), List.of(march("gfx908"), stackSize)));
    cases.add(
        Case.of("cpp_templates-gfx908", "cpp_templates", List.of(), List.of(march("gfx908"))));
    cases.add(
        Case.of(
            "f_acc_parallel-gfx11-generic",
            "f_acc_parallel",
            List.of(),
            List.of(march("gfx11-generic"))));
    return cases;
  }

  /** The requires/indirect program, printing 41. */
  private static Case features(String name, List<String> flags, List<String> linkFlags) {
    return new Case(
        name, Language.C, List.of("features.c"), List.of("-fopenmp"), flags, linkFlags, "41\n");
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  @ParameterizedTest(name = "gcc-{0}")
  @ValueSource(ints = {13, 14, 15, 16})
  void gcnLinksThroughOfflinkRegisterWhatStockRegisters(int major) throws IOException {
    try (DebianRoot r = DebianRoot.openOrSkip(major)) {
      Map<String, String> env = prepare(r, major);
      for (Case c : cases(major)) {
        checkCase(r, major, c, env);
      }
      if (major == 13) {
        checkGcc13Gfx90aFailsWithTheReason(r, env);
      }
      Case features =
          cases(major).stream().filter(x -> x.name().equals("features")).findFirst().orElseThrow();
      checkSaveTempsIntermediatesAreStocks(r, major, env, features, List.of());
      if (major >= 16) {
        // Both of mkoffload_setup's actions (stack size, HSA_XNACK=0) and the XNACK warning.
        checkSaveTempsIntermediatesAreStocks(
            r,
            major,
            env,
            features,
            List.of(march("gfx908"), "-foffload-options=amdgcn-amdhsa=-mstack-size=4096"));
      }
      checkDeviceTableIsTheAccelCompilers(r, major);
    }
  }

  /**
   * offlink's gcn device table for the release names exactly the {@code -march=} values the root's
   * accel compiler accepts (its note for an unknown one lists them all).
   */
  private static void checkDeviceTableIsTheAccelCompilers(DebianRoot r, int major)
      throws IOException {
    CommandResult probe =
        r.run(
            List.of(
                "x86_64-linux-gnu-accel-amdgcn-amdhsa-gcc-" + major,
                "-march=offlink-probe",
                "-x",
                "c",
                "-S",
                "-o",
                "/dev/null",
                "/dev/null"),
            Map.of());
    String marker = "valid arguments to '-march=' are: ";
    String note =
        probe
            .stderr()
            .lines()
            .filter(l -> l.contains(marker))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no -march note:\n" + probe.stderr()));
    java.util.Set<String> accepted =
        java.util.Set.of(note.substring(note.indexOf(marker) + marker.length()).split(" "));
    java.util.Set<String> ours =
        org.offlink.bridge.gcn.GcnRelease.forMajor(major).orElseThrow().devices().stream()
            .map(org.offlink.bridge.gcn.GcnDevice::name)
            .collect(java.util.stream.Collectors.toSet());
    assertEquals(accepted, ours, "gcc-" + major + " gcn devices");
  }

  /** What gcn mkoffload keeps with -save-temps and offlink must write byte for byte alike. */
  private static final List<String> INTERMEDIATES =
      List.of(
          ".c",
          ".gcc_args",
          ".ld_args",
          ".mkoffload.1.s",
          ".mkoffload.2.s",
          ".mkoffload.hsaco",
          ".mkoffload.omp_requires");

  /**
   * With -save-temps (both links run in the same folder, so names and paths agree) offlink's gcn
   * mkoffload leaves the same generated C file, accel compile and link response files, assembly,
   * requires file and HSACO as stock's: the features program (requires mask, indirect function,
   * declare target variable) with -g, i.e. with early debug objects, linked with {@code linkFlags}
   * instead of the case's own (when given).
   */
  private static void checkSaveTempsIntermediatesAreStocks(
      DebianRoot r, int major, Map<String, String> env, Case features, List<String> linkFlags)
      throws IOException {
    List<String> flags = new ArrayList<>(features.flags());
    flags.add("-g");
    Case c =
        new Case(
            "save-temps" + String.join("", linkFlags).replaceAll("[^a-z0-9]+", "-"),
            features.language(),
            features.sources(),
            features.modelFlags(),
            flags,
            linkFlags.isEmpty() ? features.linkFlags() : linkFlags,
            features.expectedOutput());
    List<String> objects = compile(r, major, c, env);
    Path dir = r.work().resolve(c.name());
    // Both link in the same folder (the accel compile records it for -g), then it is renamed.
    Path linkDir = dir.resolve("link");
    Map<String, List<String>> stderr = new java.util.HashMap<>();
    for (String who : List.of("stock", "ours")) {
      Files.createDirectory(linkDir);
      List<String> argv =
          new ArrayList<>(List.of("env", "--chdir=" + r.inside(linkDir), "gcc-" + major));
      if (who.equals("ours")) {
        argv.addAll(oursB(r));
      }
      argv.addAll(c.modelFlags());
      argv.add("-foffload=amdgcn-amdhsa");
      argv.addAll(c.flags());
      argv.add("-save-temps");
      argv.addAll(objects);
      argv.addAll(c.linkFlags());
      argv.addAll(List.of("-o", "prog"));
      CommandResult link = r.run(argv, env);
      checked("gcc-" + major + " -save-temps " + who, link);
      stderr.put(who, mkoffloadWarnings(link));
      Files.delete(dir.resolve(who));
      Files.move(linkDir, dir.resolve(who));
    }
    assertEquals(stderr.get("stock"), stderr.get("ours"), c.name() + ": mkoffload warnings");
    for (String suffix : INTERMEDIATES) {
      String name = "prog.xamdgcn-amdhsa" + suffix;
      byte[] stock = Files.readAllBytes(dir.resolve("stock").resolve(name));
      byte[] ours = Files.readAllBytes(dir.resolve("ours").resolve(name));
      assertTrue(
          java.util.Arrays.equals(stock, ours),
          "gcc-" + major + " " + c.name() + ": " + name + " differs from stock's");
    }
  }

  /** The lines of a link's stderr that are mkoffload warnings. */
  private static List<String> mkoffloadWarnings(CommandResult link) {
    return link.stderr().lines().filter(l -> l.contains("mkoffload: warning:")).toList();
  }

  /**
   * Debian's GCC 16 builds gcn libraries for gfx90a, gfx908 and the generic targets only: for any
   * other device its mkoffload stops before compiling, naming the generic target to use instead.
   * offlink's mkoffload, under stock's lto-wrapper and in its own tree, stops with the same line.
   * gfx908 with XNACK on has no libraries either; that fails at the accel link, in all three.
   */
  @Test
  void gcc16RefusesDevicesWithoutLibrariesWithStocksDiagnostic() throws IOException {
    try (DebianRoot r = DebianRoot.openOrSkip(16)) {
      Map<String, String> env = prepare(r, 16);
      Case c = Case.scalarFor("gcc16-refused", "gfx906");
      List<String> objects = compile(r, 16, c, env);
      String dir = r.inside(r.work().resolve(c.name()));
      List<String> tree =
          List.of("-B" + r.inside(r.work().resolve("offlink/libexec/offlink")) + "/");
      // gfx908's libraries are built with XNACK off: -mxnack=on fails at the accel link, in all.
      Case on =
          Case.of(
              "gcc16-gfx908-xnack-on",
              "c_target_scalar",
              List.of(),
              List.of(march("gfx908"), "-foffload-options=amdgcn-amdhsa=-mxnack=on"));
      for (List<String> b : List.of(List.<String>of(), oursB(r), tree)) {
        CommandResult result = link(r, "gcc-16", on, objects, b, dir + "/ours/prog", env);
        assertTrue(
            result.exitStatus() != 0 && result.stderr().contains("ld: error: incompatible xnack"),
            b + ":\n" + result.stderr());
      }
      for (String arch : List.of("gfx906", "gfx942", "gfx950", "gfx1036", "gfx1153")) {
        Case d = Case.scalarFor("gcc16-" + arch, arch);
        CommandResult stock = link(r, "gcc-16", d, objects, List.of(), dir + "/stock/prog", env);
        String line = fatalLine(stock);
        assertTrue(
            line.startsWith(
                "gcn mkoffload: fatal error: GCC was built without library support for '-march="
                    + arch
                    + "'"),
            stock.stderr());
        for (List<String> ours : List.of(oursB(r), tree)) {
          CommandResult result = link(r, "gcc-16", d, objects, ours, dir + "/ours/prog", env);
          assertEquals(line, fatalLine(result), arch + " " + ours + ":\n" + result.stderr());
        }
      }
    }
  }

  private static String fatalLine(CommandResult link) {
    assertTrue(link.exitStatus() != 0, link.stderr());
    return link.stderr()
        .lines()
        .filter(l -> l.contains("mkoffload: fatal error:"))
        .findFirst()
        .orElse(link.stderr());
  }

  /**
   * Binds the JDK into the root, copies the offlink tree and makes the -B folder with offlink's gcn
   * mkoffload; builds the spy. The environment every command needs (offlink's JVM).
   */
  private Map<String, String> prepare(DebianRoot r, int major) throws IOException {
    // The JDK the tree records (self-contained); Debian's own JDK links its java.security into
    // /etc, which the root lacks (the report's JSON writer then fails to load). Bound into this
    // test's own work folder: a bind at the JDK's own path is shared with every other test JVM
    // using the root, and the first to finish unmounted it under the others.
    String java = r.bindJdk(DebianRoots.javaHome());
    Path work = r.work();
    Path tree = work.resolve("offlink");
    Trees.copy(Toolchain.offlinkDist(), tree);
    Path bAccel = work.resolve("B/accel/amdgcn-amdhsa");
    Files.createDirectories(bAccel);
    Files.createSymbolicLink(
        bAccel.resolve("mkoffload"),
        Path.of(r.inside(tree.resolve("libexec/offlink/accel/amdgcn-amdhsa/mkoffload"))));
    Files.writeString(work.resolve("features.c"), FEATURES);
    try (InputStream in = getClass().getResourceAsStream("/interposer/gomp_register_spy.c")) {
      Files.copy(in, work.resolve("spy.c"), StandardCopyOption.REPLACE_EXISTING);
    }
    String gcc = "gcc-" + major;
    r.runChecked(
        List.of(gcc, "-O2", "-shared", "-fPIC", "-o", "libspy.so", "spy.c", "-ldl"), Map.of());
    return Map.of("OFFLINK_JAVA", java);
  }

  /** Copies the case's sources into a fresh folder and compiles them there; the objects. */
  private static List<String> compile(DebianRoot r, int major, Case c, Map<String, String> env)
      throws IOException {
    Path dir = Files.createDirectories(r.work().resolve(c.name()));
    String inDir = r.inside(dir);
    String driver = driver(c.language(), major);
    List<String> objects = new ArrayList<>();
    Path sourceDir =
        Path.of(c.sources().get(0)).isAbsolute()
            ? Path.of(c.sources().get(0)).getParent()
            : r.work();
    try (Stream<Path> files = Files.list(sourceDir)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Files.copy(f, dir.resolve(f.getFileName()));
      }
    }
    for (String source : c.sources()) {
      Path copy = dir.resolve(Path.of(source).getFileName());
      String object = r.inside(copy) + ".o";
      List<String> argv = new ArrayList<>(List.of(driver, "-c"));
      argv.addAll(c.modelFlags());
      argv.add("-foffload=amdgcn-amdhsa");
      argv.addAll(c.flags());
      argv.addAll(List.of(r.inside(copy), "-o", object));
      r.runChecked(argv, env);
      objects.add(object);
    }
    Files.createDirectories(dir.resolve("stock"));
    Files.createDirectories(dir.resolve("ours"));
    return objects;
  }

  /**
   * Debian's GCC 13 ships a gfx90a multilib without libgomp.a, so stock's link fails with the
   * linker's "incompatible mach"; offlink's fails too, saying why.
   */
  private static void checkGcc13Gfx90aFailsWithTheReason(DebianRoot r, Map<String, String> env)
      throws IOException {
    Case c = Case.scalarFor("gfx90a-13", "gfx90a");
    List<String> objects = compile(r, 13, c, env);
    String dir = r.inside(r.work().resolve(c.name()));
    CommandResult stock = link(r, "gcc-13", c, objects, List.of(), dir + "/stock/prog", env);
    assertTrue(
        stock.exitStatus() != 0 && stock.stderr().contains("incompatible mach"), stock.stderr());
    CommandResult ours = link(r, "gcc-13", c, objects, oursB(r), dir + "/ours/prog", env);
    assertTrue(
        ours.exitStatus() != 0
            && ours.stderr().contains("cannot link the amdgcn image for -march=gfx90a"),
        ours.stderr());
  }

  private static List<String> oursB(DebianRoot r) {
    return List.of("-B" + r.inside(r.work().resolve("B")) + "/");
  }

  private static void checkCase(DebianRoot r, int major, Case c, Map<String, String> env)
      throws IOException {
    String where = "gcc-" + major + " " + c.name();
    List<String> objects = compile(r, major, c, env);
    Path dir = r.work().resolve(c.name());
    String inDir = r.inside(dir);
    String driver = driver(c.language(), major);
    // Same base name: the spy names the module registering.
    String stock = inDir + "/stock/prog";
    CommandResult stockLink = link(r, driver, c, objects, List.of(), stock, env);
    checked(where + " stock", stockLink);
    String spy = r.inside(r.work().resolve("libspy.so"));
    CommandResult stockRun = runUnderSpy(r, stock, spy, inDir + "/spy-stock.txt");
    assertEquals(0, stockRun.exitStatus(), where + " stock: " + stockRun.stderr());
    assertEquals(c.expectedOutput(), stockRun.stdout(), where + " stock output");
    String stockDump = Files.readString(dir.resolve("spy-stock.txt"));
    int version = (major == 13 ? 2 : 3) << 16 | 3;
    assertTrue(
        stockDump.contains(String.format("version=%#x", version))
            && stockDump.contains(" gcn image size="),
        where + ": stock registered no gcn image of version " + version + ":\n" + stockDump);
    // offlink's mkoffload under stock lto-wrapper ("ours"), and the whole tree ("tree": offlink's
    // lto-wrapper running its mkoffload in-process).
    Map<String, List<String>> variants =
        Map.of(
            "ours", oursB(r),
            "tree", List.of("-B" + r.inside(r.work().resolve("offlink/libexec/offlink")) + "/"));
    for (Map.Entry<String, List<String>> v : variants.entrySet()) {
      String name = v.getKey();
      String what = where + " (" + name + ")";
      Files.createDirectories(dir.resolve(name));
      String ours = inDir + "/" + name + "/prog";
      Path tmp = Files.createDirectories(dir.resolve("tmp-" + name));
      Map<String, String> oursEnv = new java.util.HashMap<>(env);
      oursEnv.put("TMPDIR", r.inside(tmp));
      Path report = dir.resolve(name + "/report.json");
      oursEnv.put("OFFLINK_REPORT", r.inside(report));
      CommandResult oursLink = link(r, driver, c, objects, v.getValue(), ours, oursEnv);
      checked(what + " offlink", oursLink);
      assertEquals(
          mkoffloadWarnings(stockLink), mkoffloadWarnings(oursLink), what + ": mkoffload warnings");
      // gcc silently falls back to its own lto-wrapper when -B names nothing: offlink's wrote this.
      assertEquals(
          name.equals("tree"), Files.exists(report), what + ": offlink's lto-wrapper report");
      try (Stream<Path> left = Files.list(tmp)) {
        assertEquals(List.of(), left.toList(), what + ": offlink's link left temp files");
      }
      CommandResult dynamic =
          new LocalProcessRunner()
              .run(
                  Command.of(
                      List.of("readelf", "-d", dir.resolve(name + "/prog").toString()),
                      Map.of("PATH", Toolchain.SAFE_PATH),
                      dir));
      assertFalse(dynamic.stdout().contains("TEXTREL"), what + ":\n" + dynamic.stdout());
      CommandResult oursRun = runUnderSpy(r, ours, spy, inDir + "/spy-" + name + ".txt");
      assertEquals(0, oursRun.exitStatus(), what + " offlink: " + oursRun.stderr());
      assertEquals(stockRun.stdout(), oursRun.stdout(), what + " output");
      String oursDump = Files.readString(dir.resolve("spy-" + name + ".txt"));
      assertEquals(stockDump, oursDump, what + ": registrations differ from stock");
    }
    if (major >= 16) {
      // What 16's mkoffload_setup leaves in HSA_XNACK ("-": unset), so the comparison is not
      // vacuous: stock sets it for XNACK on/off and for unified shared memory.
      assertTrue(
          stockDump.contains(" gcn env HSA_XNACK=" + expectedHsaXnack(c.name()) + " "),
          where + ":\n" + stockDump);
    }
    if (c.name().equals("features-gfx908")) {
      assertTrue(
          mkoffloadWarnings(stockLink).toString().contains("XNACK is forced off"),
          where + ":\n" + stockLink.stderr());
    }
    if (c.name().startsWith("features")) {
      // unified_shared_memory (0x20) | TARGET_USED (0x200); one indirect function from 14 on
      assertTrue(stockDump.contains(" requires=0x220\n"), where + ":\n" + stockDump);
      assertEquals(
          major >= 14, stockDump.contains(" gcn ind_funcs=1\n"), where + ":\n" + stockDump);
      assertTrue(stockDump.contains(" gcn kernels=3 vars=1\n"), where + ":\n" + stockDump);
    }
  }

  /**
   * HSA_XNACK after GCC 16's constructor: 0 where XNACK is off (gfx908's default, -mxnack=off), 1
   * where it is on or unified shared memory is required on a device with XNACK "any" (the features
   * program on gfx90a), unset ("-") otherwise.
   */
  private static String expectedHsaXnack(String name) {
    if (name.endsWith("xnack-any")) {
      return "-";
    }
    if (name.endsWith("xnack-on") || name.equals("features")) {
      return "1";
    }
    return name.contains("gfx908") || name.endsWith("xnack-off") ? "0" : "-";
  }

  private static void checked(String what, CommandResult link) {
    assertEquals(0, link.exitStatus(), what + " link failed:\n" + link.stderr());
  }

  private static CommandResult link(
      DebianRoot r,
      String driver,
      Case c,
      List<String> objects,
      List<String> extra,
      String output,
      Map<String, String> env)
      throws IOException {
    List<String> argv = new ArrayList<>(List.of(driver));
    argv.addAll(extra);
    argv.addAll(c.modelFlags());
    argv.add("-foffload=amdgcn-amdhsa");
    argv.addAll(c.flags());
    argv.addAll(objects);
    argv.addAll(c.linkFlags());
    argv.addAll(List.of("-o", output));
    return r.run(argv, env);
  }

  private static CommandResult runUnderSpy(DebianRoot r, String program, String spy, String out)
      throws IOException {
    return r.run(
        List.of(program),
        Map.of("LD_PRELOAD", spy, "OFFLINK_SPY_OUT", out, "OMP_TARGET_OFFLOAD", "DEFAULT"));
  }

  private static String driver(Language language, int major) {
    switch (language) {
      case CXX:
        return "g++-" + major;
      case FORTRAN:
        return "gfortran-" + major;
      default:
        return "gcc-" + major;
    }
  }
}
