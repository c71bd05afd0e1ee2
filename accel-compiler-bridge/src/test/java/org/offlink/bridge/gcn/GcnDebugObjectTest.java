package org.offlink.bridge.gcn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfHeader;
import org.offlink.streamer.elf.ElfReader;
import org.offlink.streamer.elf.ElfRelocation;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.elf.ElfSymbol;
import org.offlink.streamer.elf.SectionType;
import org.offlink.streamer.elf.SymbolBinding;
import org.offlink.streamer.elf.SymbolType;
import org.offlink.streamer.elf.SymbolVisibility;
import org.offlink.streamer.write.ElfObjectBuilder;
import org.offlink.streamer.write.SectionFlag;

/**
 * The AMDGCN patch of early debug objects (GCC 12 {@code copy_early_debug_info}): header,
 * relocation types and symbol bindings, on x86-64 objects generated here.
 */
class GcnDebugObjectTest {
  @TempDir Path tmp;

  /** x86-64 relocation types in the order the fixture applies them, and GCC's AMDGPU twins. */
  private static final int[] X86 = {10, 11, 2, 24, 1, 8};

  private static final int[] AMDGPU = {6, 6, 4, 5, 3, 13};

  private static byte[] fixture(int... types) {
    ElfObjectBuilder b = new ElfObjectBuilder();
    ElfObjectBuilder.SectionHandle info =
        b.section(
            ".debug_info", SectionType.PROGBITS, Set.of(SectionFlag.EXCLUDE), 1, new byte[96]);
    b.fileSymbol("x.c");
    ElfObjectBuilder.SymbolHandle local = b.sectionSymbol(info);
    ElfObjectBuilder.SymbolHandle defined =
        b.symbol(
            "x.c.1234abcd",
            SymbolBinding.GLOBAL,
            SymbolType.OBJECT,
            SymbolVisibility.DEFAULT,
            info,
            0,
            0);
    ElfObjectBuilder.SymbolHandle undefined = b.undefined("host_only", SymbolVisibility.DEFAULT);
    List<ElfObjectBuilder.SymbolHandle> targets = List.of(local, defined, undefined);
    for (int i = 0; i < types.length; i++) {
      b.rela(info, 8L * i, types[i], targets.get(i % targets.size()), i);
    }
    return b.toBytes();
  }

  private ElfFile read(byte[] object, String name) throws Exception {
    Path file = tmp.resolve(name);
    Files.write(file, object);
    return ElfReader.read(file);
  }

  @Test
  void headerRelocationsAndUndefinedGlobalsBecomeAmdgcn() throws Exception {
    byte[] before = fixture(X86);
    byte[] object = before.clone();
    GcnDebugObject.patch(
        object, GcnTargetSettings.fromArguments(List.of("-march=gfx906")), Path.of("x"));
    try (ElfFile original = read(before, "host.o");
        ElfFile elf = read(object, "dbg.o")) {
      ElfHeader h = elf.header();
      assertEquals(64, h.osAbi(), "ELFOSABI_AMDGPU_HSA");
      assertEquals(2, h.abiVersion(), "HSA v4");
      assertEquals(1, h.rawType(), "ET_REL");
      assertEquals(0xe0, h.machine(), "EM_AMDGPU");
      assertEquals(0x52f, h.flags(), "gfx906, xnack any, sramecc any (as stock's dbg0.o)");
      ElfSection rela = elf.section(".rela.debug_info").orElseThrow();
      List<ElfRelocation> was =
          original.relocations(original.section(".rela.debug_info").orElseThrow());
      List<ElfRelocation> now = elf.relocations(rela);
      assertEquals(X86.length, now.size());
      for (int i = 0; i < X86.length; i++) {
        assertEquals(AMDGPU[i], now.get(i).type(), "relocation " + i + " (x86-64 " + X86[i] + ")");
        assertEquals(was.get(i).symbolIndex(), now.get(i).symbolIndex(), "symbol kept");
        assertEquals(was.get(i).addend(), now.get(i).addend(), "addend kept");
        assertEquals(was.get(i).offset(), now.get(i).offset(), "offset kept");
      }
      assertEquals(binding(original, "x.c.1234abcd"), binding(elf, "x.c.1234abcd"));
      assertEquals(1, binding(original, "host_only"), "fixture: global");
      assertEquals(2, binding(elf, "host_only"), "an undefined global becomes weak");
      assertEquals(before.length, object.length, "sizes and offsets do not move");
    }
  }

  private static int binding(ElfFile elf, String name) throws Exception {
    for (ElfSymbol s : elf.symbols()) {
      if (s.name().equals(name)) {
        return s.info() >> 4;
      }
    }
    throw new AssertionError("no symbol " + name);
  }

  @Test
  void relocationWithoutAmdgpuTwinIsAnErrorNamingIt() {
    byte[] object = fixture(10, 9); // R_X86_64_GOTPCREL never appears in DWARF
    MalformedObjectException e =
        assertThrows(
            MalformedObjectException.class,
            () ->
                GcnDebugObject.patch(
                    object,
                    GcnTargetSettings.fromArguments(List.of("-march=gfx906")),
                    Path.of("in.o")));
    assertTrue(e.getMessage().contains("in.o"), e.getMessage());
    assertTrue(e.getMessage().contains("found type 9"), e.getMessage());
  }

  @Test
  void onlyX86_64ObjectsArePatched() throws Exception {
    byte[] object = fixture(X86);
    GcnTargetSettings gfx906 = GcnTargetSettings.fromArguments(List.of("-march=gfx906"));
    GcnDebugObject.patch(object, gfx906, Path.of("x"));
    MalformedObjectException e =
        assertThrows(
            MalformedObjectException.class,
            () -> GcnDebugObject.patch(object, gfx906, Path.of("again.o")));
    assertTrue(e.getMessage().contains("expected a little-endian ELF64 x86-64"), e.getMessage());
  }

  /** Observed stock values: gfx906 0x52f, gfx900 0x12c, fiji 0x2a (reference §4.6). */
  @ParameterizedTest(name = "{0} -> {1} abi {2}")
  @CsvSource({
    "'-march=gfx906', 0x52f, 2",
    "'-march=gfx900', 0x12c, 2",
    "'', 0x2a, 1",
    "'-march=fiji -mxnack -msram-ecc=on', 0x2a, 1",
    "'-march=gfx906 -mno-xnack', 0x62f, 2",
    "'-march=gfx906 -mxnack -msram-ecc=on', 0xf2f, 2",
    "'-march=gfx906 -msram-ecc=off', 0x92f, 2",
    "'-march=gfx900 -msram-ecc=on -mno-xnack', 0x22c, 2",
    "'-march=gfx908', 0x530, 2"
  })
  void debugObjectFlags(String args, String flags, int abi) throws Exception {
    List<String> argv = args.isEmpty() ? List.of() : List.of(args.split(" "));
    GcnTargetSettings s = GcnTargetSettings.fromArguments(argv);
    assertEquals(Integer.decode(flags), s.debugObjectElfFlags());
    assertEquals(abi, s.debugObjectAbiVersion());
  }
}
