package org.offlink.streamer.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.streamer.elf.SectionType;
import org.offlink.streamer.elf.SymbolBinding;
import org.offlink.streamer.elf.SymbolType;
import org.offlink.streamer.elf.SymbolVisibility;
import org.offlink.streamer.write.ElfObjectBuilder.SectionHandle;
import org.offlink.streamer.write.ElfObjectBuilder.SymbolHandle;

class ElfObjectBuilderTest {
  private static final Set<SectionFlag> AX = EnumSet.of(SectionFlag.ALLOC, SectionFlag.EXECINSTR);
  private static final Set<SectionFlag> WA = EnumSet.of(SectionFlag.WRITE, SectionFlag.ALLOC);

  @TempDir Path dir;

  /**
   * An object exercising every feature: {@code answer()} reads {@code value} RIP-relative, {@code
   * answer_ptr} points at {@code answer}, {@code .init_array} runs {@code ctor} which calls {@code
   * hook@PLT} and loads {@code hook} through the GOT.
   */
  static ElfObjectBuilder sample() {
    ElfObjectBuilder b = new ElfObjectBuilder();
    b.fileSymbol("sample.c");
    byte[] code = {
      (byte) 0x8b,
      0x05,
      0,
      0,
      0,
      0, // 0: mov value(%rip),%eax
      (byte) 0xc3, // 6: ret
      // 7: ctor: sub $8,%rsp; mov hook@GOTPCREL(%rip),%rax; call hook@PLT; add $8,%rsp; ret
      0x48,
      (byte) 0x83,
      (byte) 0xec,
      0x08,
      0x48,
      (byte) 0x8b,
      0x05,
      0,
      0,
      0,
      0,
      (byte) 0xe8,
      0,
      0,
      0,
      0,
      0x48,
      (byte) 0x83,
      (byte) 0xc4,
      0x08,
      (byte) 0xc3
    };
    SectionHandle text = b.section(".text", SectionType.PROGBITS, AX, 16, code);
    SectionHandle data =
        b.section(".data", SectionType.PROGBITS, WA, 4, new byte[] {42, 0, 0, 0, 7, 0, 0, 0});
    SectionHandle bss = b.nobits(".bss", WA, 8, 64);
    SectionHandle relro = b.section(".data.rel.ro", SectionType.PROGBITS, WA, 8, new byte[16]);
    SectionHandle str =
        b.section(
            ".rodata.str1.1",
            SectionType.PROGBITS,
            EnumSet.of(SectionFlag.ALLOC, SectionFlag.MERGE, SectionFlag.STRINGS),
            1,
            1,
            "hi\0".getBytes(StandardCharsets.US_ASCII));
    SectionHandle init = b.section(".init_array", SectionType.INIT_ARRAY, WA, 8, 8, new byte[8]);
    SectionHandle fini = b.section(".fini_array", SectionType.FINI_ARRAY, WA, 8, 8, new byte[8]);
    b.section(
        ElfNotes.GNU_PROPERTY_SECTION,
        SectionType.NOTE,
        EnumSet.of(SectionFlag.ALLOC),
        8,
        ElfNotes.gnuPropertyX86Feature1(ElfNotes.X86_FEATURE_1_IBT | ElfNotes.X86_FEATURE_1_SHSTK));

    SymbolHandle answer =
        b.symbol(
            "answer", SymbolBinding.GLOBAL, SymbolType.FUNC, SymbolVisibility.DEFAULT, text, 0, 7);
    SymbolHandle value =
        b.symbol(
            "value", SymbolBinding.LOCAL, SymbolType.OBJECT, SymbolVisibility.DEFAULT, data, 0, 4);
    b.symbol(
        "weakling", SymbolBinding.WEAK, SymbolType.OBJECT, SymbolVisibility.DEFAULT, data, 4, 4);
    b.symbol(
        "scratch", SymbolBinding.GLOBAL, SymbolType.OBJECT, SymbolVisibility.HIDDEN, bss, 0, 64);
    b.symbol(
        "answer_ptr",
        SymbolBinding.GLOBAL,
        SymbolType.OBJECT,
        SymbolVisibility.PROTECTED,
        relro,
        0,
        16);
    SymbolHandle ctor =
        b.symbol(
            "ctor", SymbolBinding.LOCAL, SymbolType.FUNC, SymbolVisibility.DEFAULT, text, 7, 18);
    b.symbol("marker", SymbolBinding.LOCAL, SymbolType.NOTYPE, SymbolVisibility.DEFAULT, str, 0, 0);
    SymbolHandle hook = b.undefined("hook", SymbolVisibility.DEFAULT);
    SymbolHandle maybe =
        b.symbol(
            "maybe", SymbolBinding.WEAK, SymbolType.NOTYPE, SymbolVisibility.DEFAULT, null, 0, 0);

    b.rela(text, 2, X86_64Relocation.PC32, value, -4);
    b.rela(text, 14, X86_64Relocation.REX_GOTPCRELX, hook, -4);
    b.rela(text, 19, X86_64Relocation.PLT32, hook, -4);
    b.rela(relro, 0, X86_64Relocation.R_64, answer, 0);
    b.rela(relro, 8, X86_64Relocation.R_64, maybe, 0);
    b.rela(init, 0, X86_64Relocation.R_64, b.sectionSymbol(text), 7);
    b.rela(fini, 0, X86_64Relocation.R_64, ctor, 0);
    return b;
  }

  @Test
  void readelfAcceptsEverySectionSymbolAndRelocationWithoutWarnings() throws Exception {
    Path o = dir.resolve("sample.o");
    java.nio.file.Files.write(o, sample().toBytes());
    String all = ExternalTool.run(dir, "readelf", "-a", "-W", o.toString()).clean("readelf -a");
    assertTrue(all.contains("REL (Relocatable file)"), all);
    assertTrue(all.contains("Advanced Micro Devices X86-64"), all);
    assertTrue(Pattern.compile("\\.init_array\\s+INIT_ARRAY").matcher(all).find(), all);
    assertTrue(Pattern.compile("\\.fini_array\\s+FINI_ARRAY").matcher(all).find(), all);
    assertTrue(Pattern.compile("\\.bss\\s+NOBITS.* 000040 00  WA").matcher(all).find(), all);
    assertTrue(Pattern.compile("\\.rodata\\.str1\\.1 .* 01 AMS").matcher(all).find(), all);
    assertTrue(
        Pattern.compile("\\.note\\.GNU-stack\\s+PROGBITS.* 000000 00  ").matcher(all).find());
    assertTrue(all.contains("x86 feature: IBT, SHSTK"), all);
    for (String type : new String[] {"R_X86_64_PC32", "R_X86_64_REX_GOTPCRELX", "R_X86_64_PLT32"}) {
      assertTrue(all.contains(type), type);
    }
    assertTrue(Pattern.compile("FUNC\\s+GLOBAL\\s+DEFAULT\\s+1 answer").matcher(all).find(), all);
    assertTrue(Pattern.compile("OBJECT\\s+WEAK\\s+DEFAULT\\s+\\d+ weakling").matcher(all).find());
    assertTrue(Pattern.compile("OBJECT\\s+GLOBAL\\s+HIDDEN\\s+\\d+ scratch").matcher(all).find());
    assertTrue(
        Pattern.compile("OBJECT\\s+GLOBAL\\s+PROTECTED\\s+\\d+ answer_ptr").matcher(all).find());
    assertTrue(Pattern.compile("NOTYPE\\s+GLOBAL\\s+DEFAULT\\s+UND hook").matcher(all).find());
    assertTrue(Pattern.compile("NOTYPE\\s+WEAK\\s+DEFAULT\\s+UND maybe").matcher(all).find());
    assertTrue(Pattern.compile("FILE\\s+LOCAL\\s+DEFAULT\\s+ABS sample.c").matcher(all).find());
  }

  @Test
  void localsComeFirstAndSymtabInfoIsTheFirstGlobal() {
    ByteBuffer elf = ByteBuffer.wrap(sample().toBytes()).order(ByteOrder.LITTLE_ENDIAN);
    int shoff = (int) elf.getLong(40);
    int shnum = elf.getShort(60);
    int symtab = -1;
    for (int i = 0; i < shnum; i++) {
      if (elf.getInt(shoff + i * 64 + 4) == 2) {
        symtab = shoff + i * 64;
      }
    }
    int off = (int) elf.getLong(symtab + 24);
    int count = (int) (elf.getLong(symtab + 32) / 24);
    int info = elf.getInt(symtab + 44);
    assertEquals(24, elf.getLong(symtab + 56));
    // null, file, value, ctor, marker, .text section symbol; then 6 globals/weaks.
    assertEquals(6, info);
    assertEquals(12, count);
    for (int i = 1; i < count; i++) {
      int bind = (elf.get(off + i * 24 + 4) & 0xff) >> 4;
      assertEquals(i < info, bind == 0, "symbol " + i + " binding " + bind);
    }
    assertEquals(4, (elf.get(off + 24 + 4) & 0xf), "STT_FILE symbol first");
  }

  @Test
  void gnuLdLinksTheObjectIntoAWorkingProgramAndAcceptsLdR() throws Exception {
    Path o = dir.resolve("sample.o");
    java.nio.file.Files.write(o, sample().toBytes());
    ExternalTool.run(dir, "ld", "-r", "-o", "merged.o", o.toString()).clean("ld -r");
    ExternalTool.run(dir, "readelf", "-a", "-W", "merged.o").clean("readelf merged.o");
    Files.writeString(
        dir.resolve("main.c"),
        "#include <stdio.h>\n"
            + "extern int answer(void);\n"
            + "extern int (*const answer_ptr[2])(void);\n"
            + "int hooked;\n"
            + "void hook(void) { hooked++; }\n"
            + "int main(void) { printf(\"%d %d %d %d\\n\", answer(), answer_ptr[0](),"
            + " hooked, answer_ptr[1] == 0); return 0; }\n");
    for (String mode : new String[] {"-pie", "-no-pie"}) {
      ExternalTool.run(dir, "gcc", mode, "-o", "prog", "main.c", o.toString()).clean("gcc " + mode);
      // init_array calls ctor once, fini_array calls it again after main: hooked is 1 in main.
      assertEquals("42 42 1 1\n", ExternalTool.run(dir, "./prog").clean("prog"));
    }
  }

  @Test
  void twoWritesGiveEqualBytes() {
    assertArrayEquals(sample().toBytes(), sample().toBytes());
  }

  @Test
  void anAdoptedBufferGivesTheBytesOfACopiedSectionOfItsLength() {
    byte[] data = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    byte[] buffer = new byte[64];
    System.arraycopy(data, 0, buffer, 0, data.length);
    buffer[data.length] = 'X'; // beyond the length: must not reach the object

    ElfObjectBuilder copied = new ElfObjectBuilder();
    SectionHandle c = copied.section(".data", SectionType.PROGBITS, WA, 8, data);
    copied.symbol("d", SymbolBinding.GLOBAL, SymbolType.OBJECT, SymbolVisibility.DEFAULT, c, 8, 8);
    ElfObjectBuilder adopted = new ElfObjectBuilder();
    SectionHandle a =
        adopted.adoptSection(".data", SectionType.PROGBITS, WA, 8, buffer, data.length);
    adopted.symbol("d", SymbolBinding.GLOBAL, SymbolType.OBJECT, SymbolVisibility.DEFAULT, a, 8, 8);

    assertArrayEquals(copied.toBytes(), adopted.toBytes());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            adopted.symbol(
                "e", SymbolBinding.GLOBAL, SymbolType.OBJECT, SymbolVisibility.DEFAULT, a, 12, 8));
    assertThrows(
        IllegalArgumentException.class,
        () -> new ElfObjectBuilder().adoptSection(".x", SectionType.PROGBITS, WA, 1, buffer, 65));
  }

  @Test
  void aReservedSectionHasTheLayoutOfItsContentsWithZeroBytes() {
    byte[] data = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    ElfObjectBuilder full = new ElfObjectBuilder();
    SectionHandle f = full.section(".data", SectionType.PROGBITS, WA, 8, data);
    full.symbol("d", SymbolBinding.GLOBAL, SymbolType.OBJECT, SymbolVisibility.DEFAULT, f, 8, 8);
    ElfObjectBuilder reserved = new ElfObjectBuilder();
    SectionHandle r = reserved.reservedSection(".data", SectionType.PROGBITS, WA, 8, data.length);
    reserved.symbol(
        "d", SymbolBinding.GLOBAL, SymbolType.OBJECT, SymbolVisibility.DEFAULT, r, 8, 8);

    byte[] withData = full.toBytes();
    byte[] zeros = reserved.toBytes();
    assertEquals(withData.length, zeros.length);
    int at = indexOf(withData, data);
    for (int i = 0; i < withData.length; i++) {
      assertEquals(i >= at && i < at + data.length ? 0 : withData[i], zeros[i], "byte " + i);
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> new ElfObjectBuilder().reservedSection(".b", SectionType.NOBITS, WA, 8, 4));
  }

  private static int indexOf(byte[] in, byte[] what) {
    for (int i = 0; i + what.length <= in.length; i++) {
      if (java.util.Arrays.equals(in, i, i + what.length, what, 0, what.length)) {
        return i;
      }
    }
    throw new AssertionError("not found");
  }

  @Test
  void stackNoteIsAddedOnceAndIsNotExecutable() throws Exception {
    ElfObjectBuilder b = new ElfObjectBuilder();
    Path o = dir.resolve("empty.o");
    java.nio.file.Files.write(o, b.toBytes());
    String sections = ExternalTool.run(dir, "readelf", "-S", "-W", o.toString()).clean("readelf");
    Matcher m =
        Pattern.compile("\\.note\\.GNU-stack\\s+PROGBITS\\s+\\S+ \\S+ 000000 00 (.{3})")
            .matcher(sections);
    assertTrue(m.find(), sections);
    assertEquals("   ", m.group(1));
    ExternalTool.run(dir, "ld", "-r", "-o", "r.o", o.toString()).clean("ld -r");
  }

  @Test
  void badDeclarationsAreRejectedWithAPreciseMessage() {
    ElfObjectBuilder b = new ElfObjectBuilder();
    SectionHandle text = b.section(".text", SectionType.PROGBITS, AX, 1, new byte[4]);
    SymbolHandle s = b.undefined("x", SymbolVisibility.DEFAULT);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> b.rela(text, 2, X86_64Relocation.PC32, s, 0));
    assertTrue(e.getMessage().contains("outside .text"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> b.section(".text", SectionType.PROGBITS, AX, 1, new byte[0]));
    assertThrows(
        IllegalArgumentException.class,
        () -> b.section(".x", SectionType.PROGBITS, AX, 3, new byte[0]));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            b.symbol(
                "y",
                SymbolBinding.GLOBAL,
                SymbolType.OBJECT,
                SymbolVisibility.DEFAULT,
                text,
                2,
                4));
    ElfObjectBuilder other = new ElfObjectBuilder();
    assertThrows(IllegalArgumentException.class, () -> other.sectionSymbol(text));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            b.symbol(
                "l", SymbolBinding.LOCAL, SymbolType.NOTYPE, SymbolVisibility.DEFAULT, null, 0, 0));
  }
}
