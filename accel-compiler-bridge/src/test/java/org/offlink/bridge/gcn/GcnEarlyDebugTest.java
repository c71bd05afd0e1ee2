package org.offlink.bridge.gcn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.TestContexts;
import org.offlink.bridge.gcc.OffloadAbi;
import org.offlink.bridge.gcc.OffloadOptions;
import org.offlink.bridge.gcc.OffloadOptionsFixture;
import org.offlink.bridge.temp.TempFiles;
import org.offlink.runtime.LinkContext;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;
import org.offlink.streamer.elf.SectionType;
import org.offlink.streamer.write.ElfObjectBuilder;
import org.offlink.streamer.write.SectionFlag;

/**
 * Which mkoffload arguments give early debug objects, under which names, and what is left behind
 * (GCC 12 gcn mkoffload {@code main}, reference §4.6).
 */
class GcnEarlyDebugTest {
  @TempDir Path cwd;
  @TempDir Path tmpdir;
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  /**
   * plain.o has no early debug, debug.o has, lib.a@0x44 is an archive member, gone.o is missing.
   */
  private static final List<String> INPUTS = List.of("plain.o", "lib.a@0x44", "debug.o", "gone.o");

  @BeforeEach
  void objects() throws Exception {
    ElfObjectBuilder plain = new ElfObjectBuilder();
    plain.section(".text", SectionType.PROGBITS, Set.of(SectionFlag.ALLOC), 1, new byte[4]);
    Files.write(cwd.resolve("plain.o"), plain.toBytes());
    ElfObjectBuilder debug = new ElfObjectBuilder();
    debug.section(".text", SectionType.PROGBITS, Set.of(SectionFlag.ALLOC), 1, new byte[4]);
    ElfObjectBuilder.SectionHandle info =
        debug.section(
            ".gnu.debuglto_.debug_info",
            SectionType.PROGBITS,
            Set.of(SectionFlag.EXCLUDE),
            1,
            new byte[16]);
    debug.rela(info, 0, 10, debug.sectionSymbol(info), 0);
    Files.write(cwd.resolve("debug.o"), debug.toBytes());
    Files.copy(cwd.resolve("debug.o"), cwd.resolve("lib.a"));
  }

  private LinkContext context() {
    PrintStream stream = new PrintStream(err, true, StandardCharsets.UTF_8);
    return TestContexts.of(Map.of("TMPDIR", tmpdir.toString()), cwd, stream);
  }

  private TempFiles temps(boolean saveTemps) {
    return new TempFiles(context(), saveTemps, true);
  }

  private static OffloadOptions options(boolean saveTemps) throws Exception {
    return OffloadOptionsFixture.of(
        INPUTS, OffloadAbi.LP64, true, List.of("-march=gfx906"), saveTemps, true, "./x.xamdgcn");
  }

  @Test
  void saveTempsNamesCountEveryObjectArgumentAndKeepOnlyCopies() throws Exception {
    List<String> made;
    try (TempFiles temps = temps(true)) {
      made =
          GcnEarlyDebug.copyAll(
              options(true),
              GcnTargetSettings.fromArguments(List.of("-march=gfx906")),
              temps,
              context());
    }
    assertEquals(List.of("./x.xamdgcn.mkoffload.dbg1.o"), made, "plain.o was attempt 0");
    assertFalse(Files.exists(cwd.resolve("x.xamdgcn.mkoffload.dbg0.o")));
    assertFalse(Files.exists(cwd.resolve("x.xamdgcn.mkoffload.dbg2.o")));
    try (ElfFile elf = ElfReader.read(cwd.resolve(made.get(0)))) {
      assertEquals(0xe0, elf.header().machine());
      assertEquals(0x52f, elf.header().flags());
      assertTrue(elf.section(".debug_info").isPresent(), "renamed early debug section");
      assertTrue(elf.section(".text").isEmpty(), "code is not copied");
    }
    assertEquals(
        "[Leaving ./x.xamdgcn.mkoffload.dbg1.o]\n",
        err.toString(StandardCharsets.UTF_8),
        "-v announces the kept copy only");
    assertTrue(Files.list(tmpdir).findAny().isEmpty(), "no temp file with -save-temps");
  }

  @Test
  void withoutSaveTempsCopiesAreTempFilesAndNothingIsLeftBehind() throws Exception {
    List<String> made;
    try (TempFiles temps = temps(false)) {
      made =
          GcnEarlyDebug.copyAll(
              options(false),
              GcnTargetSettings.fromArguments(List.of("-march=gfx906")),
              temps,
              context());
      assertEquals(1, made.size());
      Path copy = Path.of(made.get(0));
      assertEquals(tmpdir, copy.getParent());
      assertTrue(
          copy.getFileName().toString().matches("cc......\\.mkoffload\\.dbg\\.o"), made.toString());
      assertTrue(Files.size(copy) > 0);
    }
    try (Stream<Path> left = Files.list(tmpdir)) {
      assertEquals(
          List.of(), left.toList(), "GCC 12 leaks empty .mkoffload.dbg.o files; we do not");
    }
    try (Stream<Path> inCwd = Files.list(cwd)) {
      assertEquals(3, inCwd.count(), "only the inputs in the working directory");
    }
  }

  @Test
  void copiesGoBeforeTheAssemblyOnTheLinkLine() throws Exception {
    OffloadOptions o = options(false);
    List<String> argv =
        GcnImageBuilder.linkArgv(
            "accel-gcc",
            o,
            GcnTargetSettings.fromArguments(o.forwarded()),
            o.forwarded(),
            List.of("d0.o", "d1.o"),
            "x.2.s",
            "x.hsaco");
    assertEquals(List.of("accel-gcc", "d0.o", "d1.o", "x.2.s", "-lgomp"), argv.subList(0, 5));
  }
}
