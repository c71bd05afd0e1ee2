package org.offlink.bridge.gcn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.gcc.AccelTools;
import org.offlink.bridge.gcc.GccInstallation;
import org.offlink.bridge.gcc.GccVersion;
import org.offlink.bridge.gcc.OffloadAbi;
import org.offlink.bridge.gcc.OffloadOptions;
import org.offlink.bridge.gcc.OffloadOptionsFixture;
import org.offlink.bridge.gcc.RealToolchain;
import org.offlink.bridge.gcc.UnsupportedGccException;
import org.offlink.bridge.image.GcnImage;
import org.offlink.bridge.image.GcnKernel;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.bridge.temp.TempScopes;

/** Compares our amdgcn image with what the installed GCC 12 mkoffload registers. */
class GcnImageBuilderRealTest {
  static final GccInstallation GCC =
      new GccInstallation("x86_64-linux-gnu", new GccVersion(12, 2, 0));
  static final String OMP =
      "int b[100];\n#pragma omp declare target(b)\n"
          + "int main(void){int a[100];\n#pragma omp target map(from:a)\n"
          + "for(int i=0;i<100;i++)a[i]=i;\n#pragma omp target\nb[1]=2;\nreturn a[5]-5;}\n";
  static final String ACC =
      "int main(void){int a[1000];\n"
          + "#pragma acc parallel loop num_gangs(32) vector_length(64) copyout(a)\n"
          + "for(int i=0;i<1000;i++)a[i]=i;\nreturn a[5]-5;}\n";

  @TempDir Path stock;
  @TempDir Path ours;
  @TempDir Path plain; // a link without -save-temps: its cwd and TMPDIR
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

  private GcnImage compareWithStock(String source, String model, String... link) throws Exception {
    RealToolchain.compile(stock, "t", source, model, "-foffload=amdgcn-amdhsa");
    Files.copy(stock.resolve("t.o"), ours.resolve("t.o"));
    List<String> flags = new ArrayList<>(List.of(model, "-foffload=amdgcn-amdhsa"));
    flags.addAll(List.of(link));
    CommandResult r =
        RealToolchain.stockLink(
            stock, RealToolchain.SAFE_PATH, "t.o", flags.toArray(String[]::new));
    assertEquals(0, r.exitStatus(), r.stderr());
    OffloadOptions options =
        OffloadOptions.parse(RealToolchain.readArgs(stock.resolve("x.offload_args")));
    GcnImage image =
        TempScopes.build(
            RealToolchain.context(ours, RealToolchain.SAFE_PATH, err),
            options,
            (ctx, temps) ->
                new GcnImageBuilder(
                        new AccelTools(RealToolchain.runner(options, ours, err), ctx, GCC))
                    .build(options, temps));
    String c = RealToolchain.readC(stock.resolve("x.xamdgcn-amdhsa.c"));
    List<GcnKernel> kernels = new ArrayList<>();
    for (List<String> g :
        RealToolchain.matches(
            RealToolchain.block(c, "gcn_kernels[] = {"),
            "\\{\"([^\"]*)\", \\{(-?\\d+), (-?\\d+), (-?\\d+)\\}, (-?\\d+), (-?\\d+)\\}")) {
      kernels.add(
          new GcnKernel(
              g.get(0),
              Integer.parseInt(g.get(1)),
              Integer.parseInt(g.get(2)),
              Integer.parseInt(g.get(3)),
              Integer.parseInt(g.get(4)),
              Integer.parseInt(g.get(5))));
    }
    assertEquals(kernels, image.kernels());
    int vars = Integer.parseInt(RealToolchain.matches(c, "gcn_num_vars = (\\d+);").get(0).get(0));
    assertEquals(vars, image.globalVariableCount());
    String[] bytes = RealToolchain.block(c, "gcn_code[] = {").trim().split("\\s*,\\s*");
    byte[] stockCode = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      stockCode[i] = (byte) Integer.parseInt(bytes[i].replace(",", "").trim());
    }
    assertArrayEquals(stockCode, image.hsaco());
    assertArrayEquals(
        Files.readAllBytes(stock.resolve("x.xamdgcn-amdhsa.mkoffload.2.s")),
        Files.readAllBytes(ours.resolve("x.xamdgcn-amdhsa.mkoffload.2.s")));
    for (String rsp : List.of("x.xamdgcn-amdhsa.gcc_args", "x.xamdgcn-amdhsa.ld_args")) {
      assertEquals(Files.readString(stock.resolve(rsp)), Files.readString(ours.resolve(rsp)), rsp);
    }
    return image;
  }

  @Test
  void openmpGfx906MatchesStock() throws Exception {
    GcnImage image = compareWithStock(OMP, "-fopenmp", "-foffload-options=-march=gfx906");
    assertEquals(4, image.kernels().size());
    assertEquals(1, image.globalVariableCount());
    HsacoHeader h = HsacoHeader.read(image.hsaco(), Path.of("x"));
    assertEquals(0x62f, h.flags());
    assertEquals(2, h.abiVersion());
  }

  @Test
  void openaccDefaultFijiMatchesStock() throws Exception {
    GcnImage image = compareWithStock(ACC, "-fopenacc");
    assertTrue(image.kernels().stream().anyMatch(k -> k.dim0() == 32), image.kernels().toString());
    assertEquals(0x2a, HsacoHeader.read(image.hsaco(), Path.of("x")).mach());
  }

  /** Records whether each command read late input, running it for real. */
  private static final class InputSpy implements ProcessRunner {
    private final ProcessRunner real;
    private final List<Boolean> withInput = new CopyOnWriteArrayList<>();

    InputSpy(ProcessRunner real) {
      this.real = real;
    }

    @Override
    public boolean feedsLateInput() {
      return real.feedsLateInput();
    }

    @Override
    public CommandResult run(Command command) throws IOException {
      withInput.add(command.input().isPresent());
      return real.run(command);
    }
  }

  private GcnImage buildWithoutSaveTemps(OffloadOptions options, boolean earlyLink, InputSpy spy)
      throws Exception {
    return TempScopes.build(
        RealToolchain.context(plain, RealToolchain.SAFE_PATH, err),
        options,
        (ctx, temps) ->
            new GcnImageBuilder(new AccelTools(spy, ctx, GCC), Optional.empty(), earlyLink)
                .build(options, temps));
  }

  private static OffloadOptions gfx906(String object) throws Exception {
    return OffloadOptionsFixture.of(
        List.of(object),
        OffloadAbi.LP64,
        true,
        List.of("-march=gfx906"),
        false,
        false,
        "./x.xamdgcn-amdhsa");
  }

  @Test
  void earlyLinkGivesStocksImage() throws Exception {
    GcnImage stockImage = compareWithStock(OMP, "-fopenmp", "-foffload-options=-march=gfx906");
    Files.copy(ours.resolve("t.o"), plain.resolve("t.o"));
    InputSpy early = new InputSpy(RealToolchain.runner(gfx906("t.o"), plain, err));
    GcnImage image = buildWithoutSaveTemps(gfx906("t.o"), true, early);
    // The compile, then the link step started beside it, its assembly given through its stdin.
    assertEquals(List.of(false, true), List.copyOf(early.withInput).stream().sorted().toList());
    assertArrayEquals(stockImage.hsaco(), image.hsaco());
    assertEquals(stockImage.kernels(), image.kernels());
    InputSpy serial = new InputSpy(RealToolchain.runner(gfx906("t.o"), plain, err));
    assertArrayEquals(image.hsaco(), buildWithoutSaveTemps(gfx906("t.o"), false, serial).hsaco());
    assertEquals(List.of(false, false), List.copyOf(serial.withInput));
    try (Stream<Path> left = Files.list(plain)) {
      assertEquals(List.of("t.o"), left.map(p -> p.getFileName().toString()).sorted().toList());
    }
  }

  @Test
  void failedCompileEndsTheEarlyLinkAndLeavesNothing() throws Exception {
    Files.write(plain.resolve("bad.o"), new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1});
    InputSpy spy = new InputSpy(RealToolchain.runner(gfx906("bad.o"), plain, err));
    long started = System.nanoTime();
    IOException e =
        assertThrows(IOException.class, () -> buildWithoutSaveTemps(gfx906("bad.o"), true, spy));
    assertTrue(System.nanoTime() - started < 20_000_000_000L);
    // The compile ran; the link step was ended, or (the compile failing at once) never started.
    assertEquals(false, spy.withInput.get(0), spy.withInput.toString());
    assertTrue(spy.withInput.size() <= 2, spy.withInput.toString());
    assertEquals(
        List.of(), ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList());
    try (Stream<Path> left = Files.list(plain)) {
      assertEquals(List.of("bad.o"), left.map(p -> p.getFileName().toString()).toList());
    }
    // The compile's diagnostics are the runner's to show (not this one's); the ended link step's
    // held output is never shown.
    assertEquals("", errBytes.toString(StandardCharsets.UTF_8));
    assertTrue(e.getMessage().contains("returned 1 exit status"), e.getMessage());
  }

  @Test
  void gfx908FailsWithClearMessage() throws Exception {
    RealToolchain.compile(ours, "t", OMP, "-fopenmp", "-foffload=amdgcn-amdhsa");
    OffloadOptions options =
        OffloadOptionsFixture.of(
            List.of("t.o"),
            OffloadAbi.LP64,
            true,
            List.of("-march=gfx908"),
            false,
            false,
            "./x.xamdgcn-amdhsa");
    UnsupportedGccException e =
        assertThrows(
            UnsupportedGccException.class,
            () ->
                TempScopes.build(
                    RealToolchain.context(ours, RealToolchain.SAFE_PATH, err),
                    options,
                    (ctx, temps) ->
                        new GcnImageBuilder(
                                new AccelTools(RealToolchain.runner(options, ours, err), ctx, GCC))
                            .build(options, temps)));
    assertTrue(e.getMessage().contains("-march=gfx908"), e.getMessage());
    assertTrue(e.getMessage().contains("no libgomp.a"), e.getMessage());
    assertEquals(1, e.getMessage().lines().count());
  }

  @Test
  void unknownMarchIsRefusedBeforeRunning() throws Exception {
    OffloadOptions options =
        OffloadOptionsFixture.of(
            List.of("t.o"),
            OffloadAbi.LP64,
            true,
            List.of("-march=gfx1030"),
            false,
            false,
            "./x.xamdgcn-amdhsa");
    org.offlink.bridge.process.FakeProcessRunner fake =
        org.offlink.bridge.process.FakeProcessRunner.succeeding();
    UnsupportedGccException e =
        assertThrows(
            UnsupportedGccException.class,
            () ->
                TempScopes.build(
                    RealToolchain.context(ours, RealToolchain.SAFE_PATH, err),
                    options,
                    (ctx, temps) ->
                        new GcnImageBuilder(new AccelTools(fake, ctx, GCC)).build(options, temps)));
    assertEquals(
        "unknown amdgcn architecture '-march=gfx1030'; GCC 12 supports fiji, gfx900,"
            + " gfx906 and gfx908",
        e.getMessage());
    assertTrue(fake.commands().isEmpty());
    assertNotEquals(null, e);
  }
}
