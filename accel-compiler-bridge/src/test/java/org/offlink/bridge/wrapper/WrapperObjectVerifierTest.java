package org.offlink.bridge.wrapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.gcc.GccRelease;
import org.offlink.bridge.image.GcnDataLayout;
import org.offlink.bridge.image.GcnImage;
import org.offlink.bridge.image.HsaXnack;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;
import org.offlink.streamer.elf.ElfSymbol;

/**
 * The cache's check that an object is a wrapper offlink's writer makes: every layout the writer
 * makes passes with its image's counts; an object linked with another ({@code ld -r}), compiled
 * from C, empty, for the other target, or changed in one byte of code is refused.
 */
class WrapperObjectVerifierTest {
  @TempDir Path dir;

  private static NvptxImage nvptx(GccRelease r) {
    NvptxImage base = WrapperObjectsTest.NVPTX;
    boolean indirect = r.layout().indirectFunctions();
    return new NvptxImage(
        base.ptxChunks(),
        base.variables(),
        base.functions(),
        indirect ? List.of("ind$fn") : List.of(),
        List.of(),
        new NvptxImage.Layout(r.nvptx().version(), r.layout().requiresMask(), indirect),
        r.layout().requiresMask() ? 0x200 : 0,
        false);
  }

  private static GcnImage gcn(GcnDataLayout layout) {
    GcnImage base = WrapperObjectsTest.GCN;
    boolean mask = layout.requiresMask();
    int indirect = layout.indirectFunctions() ? 1 : 0;
    return new GcnImage(
        base.hsaco(),
        base.kernels(),
        3,
        layout,
        mask ? 640 : 0,
        indirect,
        0,
        "",
        HsaXnack.UNCHECKED);
  }

  @Test
  void everyLayoutTheWriterMakesPassesWithItsCounts() throws Exception {
    for (int major : GccRelease.knownMajors()) {
      NvptxImage image = nvptx(GccRelease.of(major));
      assertEquals(
          image.counts(),
          WrapperObjectVerifier.verify(WrapperObjects.nvptxElf(image), OffloadTarget.NVPTX),
          "nvptx of GCC " + major);
    }
    for (GcnDataLayout layout : GcnDataLayout.values()) {
      GcnImage image = gcn(layout);
      assertEquals(new ImageCounts(2, 3), image.counts());
      assertEquals(
          image.counts(),
          WrapperObjectVerifier.verify(WrapperObjects.gcnElf(image), OffloadTarget.AMDGCN),
          "gcn " + layout);
    }
    assertEquals(
        new ImageCounts(0, 0),
        WrapperObjectVerifier.verify(
            WrapperObjects.nvptxElf(NvptxImage.empty()), OffloadTarget.NVPTX));
  }

  @Test
  void anObjectLinkedWithAConstructorOfItsOwnIsRefused() throws Exception {
    Files.write(dir.resolve("legit.o"), WrapperObjects.nvptxElf(WrapperObjectsTest.NVPTX));
    Files.writeString(
        dir.resolve("ev.c"),
        "#include <stdio.h>\n"
            + "__attribute__((constructor)) static void f(void){puts(\"POISONED\");}\n");
    Gcc.run(dir, "gcc", "-fPIC", "-c", "ev.c", "-o", "ev.o").clean("gcc -c ev.c");
    Gcc.run(dir, "ld", "-r", "legit.o", "ev.o", "-o", "x.o").clean("ld -r");
    // ld merged ev.o's .text into the wrapper's: 84 bytes of registration code became 106.
    assertRefused(Files.readAllBytes(dir.resolve("x.o")), OffloadTarget.NVPTX, "found 106");
    // ld -r of the wrapper alone is the same code in another layout: also not the writer's.
    Gcc.run(dir, "ld", "-r", "legit.o", "-o", "alone.o").clean("ld -r alone");
    assertRefused(Files.readAllBytes(dir.resolve("alone.o")), OffloadTarget.NVPTX, "");
  }

  @Test
  void anEmptyObjectAndTheCFormCompiledByGccAreRefused() throws Exception {
    Files.writeString(dir.resolve("empty.c"), "");
    Gcc.run(dir, "gcc", "-c", "empty.c", "-o", "empty.o").clean("gcc -c empty.c");
    assertRefused(Files.readAllBytes(dir.resolve("empty.o")), OffloadTarget.NVPTX, "no .rodata");
    Files.writeString(dir.resolve("w.c"), WrapperObjects.nvptxC(WrapperObjectsTest.NVPTX));
    Gcc.run(dir, "gcc", "-fPIC", "-m64", "-c", "w.c", "-o", "c.o").clean("gcc -c w.c");
    assertRefused(Files.readAllBytes(dir.resolve("c.o")), OffloadTarget.NVPTX, "");
  }

  @Test
  void bytesThatAreNotElfOrAreCutShortAreRefused() {
    byte[] object = WrapperObjects.nvptxElf(WrapperObjectsTest.NVPTX);
    assertRefused(new byte[0], OffloadTarget.NVPTX, "not a well-formed ELF object");
    assertRefused("hello, world\n".getBytes(), OffloadTarget.NVPTX, "not a well-formed ELF");
    assertRefused(Arrays.copyOf(object, object.length - 1), OffloadTarget.NVPTX, "");
    byte[] longer = Arrays.copyOf(object, object.length + 1);
    assertRefused(longer, OffloadTarget.NVPTX, "writer makes");
  }

  @Test
  void anObjectOfTheOtherTargetIsRefused() {
    assertRefused(
        WrapperObjects.nvptxElf(WrapperObjectsTest.NVPTX), OffloadTarget.AMDGCN, "no .data");
    assertRefused(
        WrapperObjects.gcnElf(WrapperObjectsTest.GCN), OffloadTarget.NVPTX, "not a data section");
  }

  @Test
  void oneByteOfCodeOrAnUnknownVersionIsRefused() {
    byte[] object = WrapperObjects.nvptxElf(WrapperObjectsTest.NVPTX);
    int text = indexOf(object, RegistrationCode.function(0x10001, 5));
    byte[] code = object.clone();
    code[text + 41] = (byte) 0x90; // ret -> nop: falls into fini
    assertRefused(code, OffloadTarget.NVPTX, "writer makes");
    byte[] version = object.clone();
    for (int f = 0; f < 2; f++) {
      ByteBuffer.wrap(version)
          .order(ByteOrder.LITTLE_ENDIAN)
          .putInt(text + f * RegistrationCode.SIZE + 28, 0x70001);
    }
    assertRefused(version, OffloadTarget.NVPTX, "version 0x70001");
  }

  @Test
  void aConstructorPointedElsewhereIsRefusedWhileDataIsTheObjectsOwn() throws Exception {
    byte[] object = WrapperObjects.nvptxElf(WrapperObjectsTest.NVPTX);
    // .init_array's relocation: .text + 0 (init) -> .text + 42 (fini runs at start-up).
    byte[] moved = object.clone();
    long rela = sectionOffset(object, ".rela.init_array");
    ByteBuffer.wrap(moved).order(ByteOrder.LITTLE_ENDIAN).putLong((int) rela + 16, 42);
    assertRefused(moved, OffloadTarget.NVPTX, "writer makes");
    // A byte of the PTX itself is data: what the object registers, not host code.
    byte[] ptx = object.clone();
    ptx[(int) sectionOffset(object, ".rodata") + 3] ^= 1;
    assertEquals(
        WrapperObjectsTest.NVPTX.counts(), WrapperObjectVerifier.verify(ptx, OffloadTarget.NVPTX));
  }

  private static long sectionOffset(byte[] object, String name) throws Exception {
    try (ElfFile elf = ElfReader.read(Path.of("w.o"), object)) {
      return elf.section(name).orElseThrow().offset();
    }
  }

  @Test
  void countsAreReadFromTheRegistrationData() throws Exception {
    byte[] object = WrapperObjects.nvptxElf(WrapperObjectsTest.NVPTX);
    object[(int) fileOffset(object, "target_data") + 24] = 7; // var_num: 2 -> 7
    assertEquals(new ImageCounts(2, 7), WrapperObjectVerifier.verify(object, OffloadTarget.NVPTX));
  }

  /** Where the object named {@code symbol} lies in {@code object}'s bytes. */
  static long fileOffset(byte[] object, String symbol) throws Exception {
    try (ElfFile elf = ElfReader.read(Path.of("w.o"), object)) {
      for (ElfSymbol s : elf.symbols()) {
        if (s.name().equals(symbol)) {
          return elf.section(s.sectionIndex()).offset() + s.value();
        }
      }
    }
    throw new AssertionError("no symbol " + symbol);
  }

  private static void assertRefused(byte[] object, OffloadTarget target, String says) {
    WrapperMismatchException e =
        assertThrows(
            WrapperMismatchException.class, () -> WrapperObjectVerifier.verify(object, target));
    assertTrue(e.getMessage().contains(says), e.getMessage());
    assertTrue(!e.getMessage().contains("\n"), e.getMessage());
  }

  private static int indexOf(byte[] in, byte[] what) {
    for (int i = 0; i + what.length <= in.length; i++) {
      if (Arrays.equals(in, i, i + what.length, what, 0, what.length)) {
        return i;
      }
    }
    throw new AssertionError("pattern not found");
  }
}
