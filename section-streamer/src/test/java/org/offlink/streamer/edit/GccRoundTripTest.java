package org.offlink.streamer.edit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.runtime.LinkScope;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.testing.Toolchain;

/** Edited real gcc-12 offload objects still link with GNU ld and run. */
class GccRoundTripTest {
  private static final LinkScope SCOPE = LinkScope.withUmask(022);

  @TempDir Path tmp;

  private String link(String out, String... args) throws Exception {
    List<String> argv = new java.util.ArrayList<>(List.of("gcc-12"));
    argv.addAll(List.of(args));
    argv.addAll(List.of("-o", out));
    Toolchain.check(tmp, argv);
    return Toolchain.check(tmp, List.of("nm", out));
  }

  @Test
  void strippedObjectLinksHostOnlyAndRuns() throws Exception {
    Path obj = Toolchain.compile(tmp, "gcc-12", "x.c", Toolchain.OFFLOAD_C);
    Path host = tmp.resolve("host.o");
    ObjectEditor.builder()
        .removeSections(ObjectEditor.OFFLOAD_SECTIONS)
        .build()
        .apply(SCOPE, obj, host);
    try (ElfFile elf = ElfReader.read(host)) {
      assertTrue(elf.sectionsWithPrefix(".gnu.offload").isEmpty());
    }
    String nm = link("host", "host.o", "-lgomp");
    assertFalse(nm.contains("GOMP_offload_register"), "no offload image may be linked");
    assertEquals("sum=45\n", Toolchain.check(tmp, List.of("./host")));
  }

  @Test
  void reAddedIrLinksWithBothOffloadTargetsAndRuns() throws Exception {
    Path obj = Toolchain.compile(tmp, "gcc-12", "x.c", Toolchain.OFFLOAD_C);
    Path bare = tmp.resolve("bare.o");
    ObjectEditor.builder()
        .removeSections(n -> n.startsWith(ObjectEditor.OFFLOAD_LTO_PREFIX))
        .build()
        .apply(SCOPE, obj, bare);
    ObjectEditor.Builder readd = ObjectEditor.builder();
    List<ElfSection> ir;
    try (ElfFile original = ElfReader.read(obj)) {
      ir = original.sectionsWithPrefix(ObjectEditor.OFFLOAD_LTO_PREFIX);
      assertTrue(ir.size() > 5);
      for (ElfSection s : ir) {
        readd.addSection(s.name(), s.type(), s.flags(), s.addralign(), original.readSectionData(s));
      }
    }
    Path back = tmp.resolve("back.o");
    readd.build().apply(SCOPE, bare, back);
    try (ElfFile original = ElfReader.read(obj);
        ElfFile rebuilt = ElfReader.read(back)) {
      for (ElfSection s : ir) {
        ElfSection t = rebuilt.section(s.name()).orElseThrow();
        assertArrayEquals(original.readSectionData(s), rebuilt.readSectionData(t), s.name());
      }
    }
    for (String target : List.of("amdgcn-amdhsa", "nvptx-none")) {
      String nm = link("prog-" + target, "-fopenmp", "-foffload=" + target, "back.o");
      assertTrue(nm.contains("GOMP_offload_register"), "an offload image must be linked in");
      assertEquals("sum=45\n", Toolchain.check(tmp, List.of("./prog-" + target)));
    }
  }
}
