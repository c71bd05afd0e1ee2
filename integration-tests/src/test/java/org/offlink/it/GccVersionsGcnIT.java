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
 * offlink's gcn mkoffload against stock {@code gcc-<V>}'s, for GCC 13 (trixie), 14 (trixie) and 15
 * (sid) in their Debian roots (scripts/setup-toolchain.sh --gcc V). The objects of each program are
 * compiled once; then they are linked twice with the root's own {@code gcc-<V>}/{@code
 * g++-<V>}/{@code gfortran-<V>}: stock, and with {@code -B} naming a folder that holds only
 * offlink's {@code accel/amdgcn-amdhsa/mkoffload} (stock lto-wrapper runs it; the host JDK is
 * bind-mounted into the root for its launcher). Both programs run with host fallback under the
 * registration spy: same exit status, same output (the corpus expectation), the same registrations
 * line for line (version word, requires mask, indirect-function count, kernels with dims and
 * register counts, variables, the HSACO's size, SHA-256 and e_flags, i.e. a byte-identical image).
 * offlink's link leaves nothing in its TMPDIR and its executable has no TEXTREL.
 *
 * <p>Programs: corpus C (OpenMP, several TUs with declare target variables, OpenACC), C++ and
 * Fortran (OpenMP, OpenACC) for gfx906; the C program also with {@code -no-pie}, {@code -flto},
 * {@code -g}, {@code -mstack-size=65536} and (14+) for gfx90a; and a program with {@code omp
 * requires unified_shared_memory}, a {@code declare target} variable and (14+) a {@code declare
 * target indirect} function.
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

  private static List<Case> cases(int major) {
    List<Case> cases = new ArrayList<>();
    for (String program :
        List.of(
            "c_target_scalar",
            "c_declare_target_tus",
            "c_acc_parallel",
            "cpp_templates",
            "f_target",
            "f_acc_parallel")) {
      cases.add(Case.of(program, program, List.of(), List.of(GFX906)));
    }
    String c = "c_target_scalar";
    cases.add(Case.of(c + "-no-pie", c, List.of(), List.of(GFX906, "-no-pie")));
    cases.add(Case.of(c + "-flto", c, List.of("-flto"), List.of(GFX906)));
    cases.add(Case.of(c + "-g", c, List.of("-g"), List.of(GFX906)));
    // 13+'s configure_stack_size constructor: offlink compiles GCC's C form for it (15: #embed).
    cases.add(
        Case.of(
            c + "-stack-size",
            c,
            List.of(),
            List.of(GFX906, "-foffload-options=amdgcn-amdhsa=-mstack-size=65536")));
    if (major >= 14) {
      // Debian's GCC 13 gfx90a multilib has no libgomp.a (stock fails: incompatible mach).
      cases.add(Case.scalarFor(c + "-gfx90a", "gfx90a"));
    }
    List<String> features = major >= 14 ? List.of("-O2", "-DINDIRECT") : List.of("-O2");
    cases.add(
        new Case(
            "features",
            Language.C,
            List.of("features.c"),
            List.of("-fopenmp"),
            features,
            List.of(GFX906),
            "41\n"));
    return cases;
  }

  @ParameterizedTest(name = "gcc-{0}")
  @ValueSource(ints = {13, 14, 15})
  void gcnLinksThroughOfflinkRegisterWhatStockRegisters(int major) throws IOException {
    try (DebianRoot r = DebianRoot.openOrSkip(major)) {
      Map<String, String> env = prepare(r, major);
      for (Case c : cases(major)) {
        checkCase(r, major, c, env);
      }
      if (major == 13) {
        checkGcc13Gfx90aFailsWithTheReason(r, env);
      }
      checkSaveTempsIntermediatesAreStocks(r, major, env);
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
   * declare target variable) with -g, i.e. with early debug objects.
   */
  private static void checkSaveTempsIntermediatesAreStocks(
      DebianRoot r, int major, Map<String, String> env) throws IOException {
    Case features = cases(major).get(cases(major).size() - 1);
    List<String> flags = new ArrayList<>(features.flags());
    flags.add("-g");
    Case c =
        new Case(
            "save-temps",
            features.language(),
            features.sources(),
            features.modelFlags(),
            flags,
            features.linkFlags(),
            features.expectedOutput());
    List<String> objects = compile(r, major, c, env);
    Path dir = r.work().resolve(c.name());
    // Both link in the same folder (the accel compile records it for -g), then it is renamed.
    Path linkDir = dir.resolve("link");
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
      checked("gcc-" + major + " -save-temps " + who, r.run(argv, env));
      Files.delete(dir.resolve(who));
      Files.move(linkDir, dir.resolve(who));
    }
    for (String suffix : INTERMEDIATES) {
      String name = "prog.xamdgcn-amdhsa" + suffix;
      byte[] stock = Files.readAllBytes(dir.resolve("stock").resolve(name));
      byte[] ours = Files.readAllBytes(dir.resolve("ours").resolve(name));
      assertTrue(
          java.util.Arrays.equals(stock, ours),
          "gcc-" + major + " -save-temps: " + name + " differs from stock's");
    }
  }

  /**
   * GCC 16's gcn mkoffload differs from 15's (docs/gcc-versions.md): offlink refuses it, naming the
   * differences, where stock links (gfx9-generic: 16 has no gfx906 libraries).
   */
  @Test
  void gcc16GcnLinkIsRefusedNamingWhatDiffers() throws IOException {
    try (DebianRoot r = DebianRoot.openOrSkip(16)) {
      Map<String, String> env = prepare(r, 16);
      Case c = Case.scalarFor("gcc16", "gfx9-generic");
      List<String> objects = compile(r, 16, c, env);
      String dir = r.inside(r.work().resolve(c.name()));
      checked("gcc-16 stock", link(r, "gcc-16", c, objects, List.of(), dir + "/stock/prog", env));
      CommandResult ours = link(r, "gcc-16", c, objects, oursB(r), dir + "/ours/prog", env);
      assertTrue(ours.exitStatus() != 0, ours.stderr());
      for (String part : List.of("fatal error: GCC 16 is not supported", "mkoffload_setup")) {
        assertTrue(ours.stderr().contains(part), ours.stderr());
      }
    }
  }

  /**
   * Binds the JDK into the root, copies the offlink tree and makes the -B folder with offlink's gcn
   * mkoffload; builds the spy. The environment every command needs (offlink's JVM).
   */
  private Map<String, String> prepare(DebianRoot r, int major) throws IOException {
    Path javaHome = Path.of(System.getProperty("java.home")).toRealPath();
    r.bindHostFolder(javaHome);
    Path work = r.work();
    Path tree = work.resolve("offlink");
    copyTree(Toolchain.offlinkDist(), tree);
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
    return Map.of("OFFLINK_JAVA", javaHome.resolve("bin/java").toString());
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
    String ours = inDir + "/ours/prog";
    checked(where + " stock", link(r, driver, c, objects, List.of(), stock, env));
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    Map<String, String> oursEnv = new java.util.HashMap<>(env);
    oursEnv.put("TMPDIR", r.inside(tmp));
    checked(where + " offlink", link(r, driver, c, objects, oursB(r), ours, oursEnv));
    try (Stream<Path> left = Files.list(tmp)) {
      assertEquals(List.of(), left.toList(), where + ": offlink's link left temp files");
    }
    CommandResult dynamic =
        new LocalProcessRunner()
            .run(
                Command.of(
                    List.of("readelf", "-d", dir.resolve("ours/prog").toString()),
                    Map.of("PATH", Toolchain.SAFE_PATH),
                    dir));
    assertFalse(dynamic.stdout().contains("TEXTREL"), where + ":\n" + dynamic.stdout());
    String spy = r.inside(r.work().resolve("libspy.so"));
    CommandResult stockRun = runUnderSpy(r, stock, spy, inDir + "/spy-stock.txt");
    CommandResult oursRun = runUnderSpy(r, ours, spy, inDir + "/spy-ours.txt");
    assertEquals(0, stockRun.exitStatus(), where + " stock: " + stockRun.stderr());
    assertEquals(0, oursRun.exitStatus(), where + " offlink: " + oursRun.stderr());
    assertEquals(c.expectedOutput(), stockRun.stdout(), where + " stock output");
    assertEquals(stockRun.stdout(), oursRun.stdout(), where + " output");
    String stockDump = Files.readString(dir.resolve("spy-stock.txt"));
    String oursDump = Files.readString(dir.resolve("spy-ours.txt"));
    int version = (major == 13 ? 2 : 3) << 16 | 3;
    assertTrue(
        stockDump.contains(String.format("version=%#x", version))
            && stockDump.contains(" gcn image size="),
        where + ": stock registered no gcn image of version " + version + ":\n" + stockDump);
    assertEquals(stockDump, oursDump, where + ": registrations differ from stock");
    if (c.name().equals("features")) {
      // unified_shared_memory (0x20) | TARGET_USED (0x200); one indirect function from 14 on
      assertTrue(stockDump.contains(" requires=0x220\n"), where + ":\n" + stockDump);
      assertEquals(
          major >= 14, stockDump.contains(" gcn ind_funcs=1\n"), where + ":\n" + stockDump);
      assertTrue(stockDump.contains(" gcn kernels=3 vars=1\n"), where + ":\n" + stockDump);
    }
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

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : all.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }
}
