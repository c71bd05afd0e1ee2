package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.offlink.it.RegistrationAssertions.assertBuilt;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.streamer.inspect.BinaryInspector;
import org.offlink.streamer.inspect.GcnTargetData;
import org.offlink.streamer.inspect.InspectedObject;
import org.offlink.streamer.inspect.NvptxTargetData;
import org.offlink.streamer.inspect.RegisteredImage;

/**
 * {@code offlink inspect} on programs linked by stock GCC and by offlink ({@code -B
 * <dist>/libexec/offlink/}): both list the same images, functions and variables, and {@code
 * --extract} writes exactly the PTX and HSACO bytes the program registers (checked against the
 * registration spy's SHA-256 of each chunk, whose size includes the NUL the file leaves out). PIE,
 * non-PIE and shared libraries.
 */
class InspectIT {
  @TempDir static Path scratch;
  private static Toolchain toolchain;
  private static Path dist;

  @BeforeAll
  static void setUp() throws IOException {
    dist = Toolchain.offlinkDist();
    toolchain = Toolchain.create(scratch);
  }

  static Stream<Arguments> builds() {
    return Stream.of(
        Arguments.of("c_declare_target_link", List.of()),
        Arguments.of("c_declare_target_link", List.of("-no-pie")),
        Arguments.of("c_shared_lib", List.of()));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("builds")
  void stockAndOfflinkLinksInspectAlikeAndExtractWhatIsRegistered(
      String name, List<String> extra, @TempDir Path work) throws Exception {
    CorpusProgram program = Corpus.program(name);
    TargetSet targets = TargetSet.both("gfx906");
    ToolDir offlink = new ToolDir("offlink", Optional.of(dist.resolve("libexec/offlink")));
    BuildResult stock =
        toolchain.build(program, targets, ToolDir.stock(), work.resolve("s"), extra);
    BuildResult ours = toolchain.build(program, targets, offlink, work.resolve("o"), extra);
    assertBuilt(stock);
    assertBuilt(ours);
    RunResult run = toolchain.run(ours);
    for (String module : modules(ours)) {
      List<String> a = summary(stock.workDirectory().resolve(module));
      List<String> b = summary(ours.workDirectory().resolve(module));
      assertFalse(a.isEmpty(), module);
      assertEquals(a, b, module);
      checkExtraction(ours.workDirectory().resolve(module), run, module, work.resolve("x"));
    }
  }

  private static List<String> modules(BuildResult build) {
    List<String> m = new ArrayList<>(List.of(Toolchain.EXECUTABLE));
    if (Files.exists(build.workDirectory().resolve("libcorpus.so"))) {
      m.add("libcorpus.so");
    }
    return m;
  }

  /** Targets, functions, variables and image digests, in a comparable form. */
  private static List<String> summary(Path binary) throws IOException {
    InspectedObject o = BinaryInspector.inspect(binary).get(0);
    List<String> lines = new ArrayList<>();
    o.hostTables().orElseThrow().functions().forEach(f -> lines.add("host func " + f.name()));
    o.hostTables()
        .orElseThrow()
        .variables()
        .forEach(v -> lines.add("host var " + v.name() + " " + v.size() + " " + v.link()));
    for (RegisteredImage image : o.images()) {
      lines.add("image " + image.target() + " " + image.version());
      if (image instanceof NvptxTargetData n) {
        n.functions().forEach(f -> lines.add(" func " + f.name() + " " + f.dims()));
        n.variables().forEach(v -> lines.add(" var " + v));
        n.chunks().forEach(c -> lines.add(" ptx " + c.size() + " " + c.sha256()));
      } else if (image instanceof GcnTargetData g) {
        g.kernels().forEach(k -> lines.add(" kernel " + k.name() + " " + k.dims()));
        lines.add(" vars " + g.variableCount() + " image " + g.image().length);
      }
    }
    return lines;
  }

  private void checkExtraction(Path binary, RunResult run, String module, Path dir)
      throws Exception {
    CommandResult r =
        new LocalProcessRunner()
            .run(
                Command.of(
                    List.of(
                        dist.resolve("bin/offlink").toString(),
                        "inspect",
                        "--extract",
                        dir.toString(),
                        binary.toString()),
                    LinkMode.applied(
                        Map.of(
                            "PATH",
                            Toolchain.SAFE_PATH,
                            "OFFLINK_JAVA",
                            Path.of(System.getProperty("java.home"), "bin", "java").toString())),
                    dir.getParent()));
    assertEquals(0, r.exitStatus(), r.stderr());
    Registration nvptx = registration(run, module, 5);
    Registration gcn = registration(run, module, 8);
    int chunks = 0;
    for (String line : nvptx.body()) {
      if (line.startsWith(" nvptx ptx[")) {
        Path file = dir.resolve(module + ".nvptx." + chunks++ + ".ptx");
        byte[] text = Files.readAllBytes(file);
        ByteArrayOutputStream registered = new ByteArrayOutputStream();
        registered.writeBytes(text);
        registered.write(0);
        assertEquals(RegistrationDump.value(line, "size").orElseThrow(), "" + (text.length + 1));
        assertEquals(
            RegistrationDump.value(line, "sha256").orElseThrow(),
            sha256(registered.toByteArray()),
            file.toString());
      }
    }
    assertFalse(chunks == 0, "the spy saw PTX chunks for " + module);
    String image =
        gcn.body().stream().filter(l -> l.startsWith(" gcn image ")).findFirst().orElseThrow();
    assertEquals(
        RegistrationDump.value(image, "sha256").orElseThrow(),
        sha256(Files.readAllBytes(dir.resolve(module + ".gcn.hsaco"))));
  }

  private static Registration registration(RunResult run, String module, int type) {
    return run.dump().registered().stream()
        .filter(r -> r.module().equals(module) && r.deviceType() == type)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no registration of " + module + " type " + type));
  }

  private static String sha256(byte[] data) throws NoSuchAlgorithmException {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
  }
}
