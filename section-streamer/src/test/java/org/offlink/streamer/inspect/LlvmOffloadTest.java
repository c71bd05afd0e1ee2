package org.offlink.streamer.inspect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.elf.SectionType;
import org.offlink.streamer.elf.SymbolBinding;
import org.offlink.streamer.elf.SymbolType;
import org.offlink.streamer.elf.SymbolVisibility;
import org.offlink.streamer.testing.Toolchain;
import org.offlink.streamer.write.ElfObjectBuilder;
import org.offlink.streamer.write.SectionFlag;
import org.offlink.streamer.write.X86_64Relocation;

/** LLVM OffloadBinaries and offload entry tables, from fixtures written in code. */
class LlvmOffloadTest {
  private static final byte[] IMAGE =
      "\u007fELF fake gfx90a image".getBytes(StandardCharsets.UTF_8);

  private static Map<String, String> strings(String triple, String arch) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("triple", triple);
    m.put("arch", arch);
    return m;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void readsEachVersion(int version) throws Exception {
    byte[] bin =
        OffloadBinaryFixture.write(version, 1, 1, strings("amdgcn-amd-amdhsa", "gfx90a"), IMAGE);
    List<OffloadBinary> all = new OffloadBinaryReader(Path.of("x.o"), 0).readAll(bin);
    assertEquals(1, all.size());
    OffloadBinaryEntry e = all.get(0).entries().get(0);
    assertEquals(version, all.get(0).version());
    assertEquals(ImageKind.OBJECT, e.imageKind());
    assertEquals("openmp", e.offloadKindName());
    assertEquals("amdgcn-amd-amdhsa", e.triple());
    assertEquals("gfx90a", e.arch());
    assertArrayEquals(IMAGE, OffloadBinaryReader.image(bin, all.get(0), e));
  }

  @Test
  void walksConcatenatedBinariesAtEightByteSteps() throws Exception {
    byte[] a = OffloadBinaryFixture.write(2, 5, 1, strings("nvptx64-nvidia-cuda", "sm_70"), IMAGE);
    byte[] b =
        OffloadBinaryFixture.write(2, 2, 1, strings("amdgcn-amd-amdhsa", "gfx90a"), new byte[3]);
    ByteArrayOutputStream both = new ByteArrayOutputStream();
    both.writeBytes(a);
    both.writeBytes(b);
    List<OffloadBinary> all =
        new OffloadBinaryReader(Path.of("x.o"), 0).readAll(both.toByteArray());
    assertEquals(2, all.size());
    assertEquals(ImageKind.PTX, all.get(0).entries().get(0).imageKind());
    assertEquals("sm_70", all.get(0).entries().get(0).arch());
    assertEquals(a.length, all.get(1).offset());
    assertEquals(3, all.get(1).entries().get(0).imageSize());
  }

  @Test
  void badMagicVersionAndSizeGiveOneLineErrors() {
    byte[] good = OffloadBinaryFixture.write(2, 1, 1, strings("t", "a"), IMAGE);
    byte[] magic = good.clone();
    magic[0] = 0;
    byte[] version = good.clone();
    version[4] = 9;
    byte[] size = good.clone();
    ByteBuffer.wrap(size).order(ByteOrder.LITTLE_ENDIAN).putLong(8, 1 << 20);
    byte[] image = good.clone();
    ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN).putLong(32 + 32, 1 << 20);
    for (byte[] bad : List.of(magic, version, size, image, Arrays.copyOf(good, 20))) {
      MalformedObjectException e =
          assertThrows(
              MalformedObjectException.class,
              () -> new OffloadBinaryReader(Path.of("bad.o"), 0x40).readAll(bad));
      assertTrue(e.getMessage().startsWith("bad.o (at offset 0x"), e.getMessage());
      assertEquals(1, e.getMessage().lines().count());
    }
  }

  @Test
  void objectWithOffloadingSectionAndEntriesIsInspected(@TempDir Path dir) throws Exception {
    ElfObjectBuilder b = new ElfObjectBuilder();
    byte[] bin = OffloadBinaryFixture.write(2, 1, 1, strings("amdgcn-amd-amdhsa", "gfx90a"), IMAGE);
    b.section(".llvm.offloading", SectionType.PROGBITS, Set.of(SectionFlag.EXCLUDE), 8, bin);
    var names =
        b.section(
            ".llvm.rodata.offloading",
            SectionType.PROGBITS,
            Set.of(SectionFlag.ALLOC),
            1,
            "__omp_offloading_fd00_1_main_l5\0gvar\0".getBytes(StandardCharsets.US_ASCII));
    var legacy =
        b.section(
            "omp_offloading_entries",
            SectionType.PROGBITS,
            Set.of(SectionFlag.ALLOC, SectionFlag.WRITE),
            8,
            legacyEntries());
    var current =
        b.section(
            "llvm_offload_entries",
            SectionType.PROGBITS,
            Set.of(SectionFlag.ALLOC, SectionFlag.WRITE),
            8,
            new byte[56]);
    var namesSym = b.sectionSymbol(names);
    b.rela(legacy, 8, X86_64Relocation.R_64, namesSym, 0);
    b.rela(legacy, 32 + 8, X86_64Relocation.R_64, namesSym, 32);
    b.rela(current, 24, X86_64Relocation.R_64, namesSym, 32);
    b.symbol(
        "gvar", SymbolBinding.GLOBAL, SymbolType.OBJECT, SymbolVisibility.DEFAULT, names, 32, 5);
    Path object = dir.resolve("llvm.o");
    java.nio.file.Files.write(object, b.toBytes());
    InspectedObject o = BinaryInspector.inspect(object).get(0);
    assertEquals(
        List.of("__omp_offloading_fd00_1_main_l5", "gvar", "gvar"),
        o.llvmEntries().stream().map(LlvmOffloadEntry::name).toList());
    assertEquals(4, o.llvmEntries().get(1).size());
    assertEquals(1, o.llvmBinaries().size());
    OffloadBinary binary = o.llvmBinaries().get(0).binaries().get(0);
    assertEquals("gfx90a", binary.entries().get(0).arch());
    assertArrayEquals(IMAGE, o.llvmBinaries().get(0).image(binary, binary.entries().get(0)));

    // Linked: the same entries resolve through the image's memory (names via pointers).
    Toolchain.write(dir, "m.c", "int main(void) { return 0; }\n");
    Toolchain.stdout(dir, "gcc-12", "m.c", "llvm.o", "-o", "linked");
    InspectedObject linked = BinaryInspector.inspect(dir.resolve("linked")).get(0);
    assertEquals(
        List.of("__omp_offloading_fd00_1_main_l5", "gvar", "gvar"),
        linked.llvmEntries().stream().map(LlvmOffloadEntry::name).toList());
  }

  private static byte[] legacyEntries() {
    ByteBuffer e = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
    e.putLong(16, 0).putInt(24, 0);
    e.putLong(32 + 16, 4).putInt(32 + 24, 0);
    return e.array();
  }
}
