package org.offlink.ltowrapper.offload;

import java.util.List;
import java.util.Set;
import org.offlink.streamer.elf.SectionType;
import org.offlink.streamer.elf.SymbolBinding;
import org.offlink.streamer.elf.SymbolType;
import org.offlink.streamer.elf.SymbolVisibility;
import org.offlink.streamer.write.ElfObjectBuilder;
import org.offlink.streamer.write.SectionFlag;
import org.offlink.streamer.write.X86_64Relocation;

/**
 * offlink's position-independent {@code __OFFLOAD_TABLE__} object for PIE and shared links. GCC
 * 12's {@code crtoffloadtable.o} puts the table in {@code .rodata}, so a PIE link gets text
 * relocations and ld warns ("relocation against '__offload_vars_end' in read-only section
 * '.rodata'", "creating DT_TEXTREL in a PIE"). This object holds the same four pointers in {@code
 * .data.rel.ro} (writable until RELRO protects it), with the bracket symbols referenced as hidden,
 * so the linker resolves them to {@code R_X86_64_RELATIVE} without a text relocation:
 *
 * <pre>
 * .data.rel.ro  (WA, align 8, 32 bytes)
 *  0  8  &amp;__offload_func_table   R_X86_64_64  (crtoffloadbegin.o, hidden)
 *  8  8  &amp;__offload_funcs_end    R_X86_64_64  (crtoffloadend.o, hidden)
 * 16  8  &amp;__offload_var_table    R_X86_64_64  (crtoffloadbegin.o, hidden)
 * 24  8  &amp;__offload_vars_end     R_X86_64_64  (crtoffloadend.o, hidden)
 * symbol __OFFLOAD_TABLE__: GLOBAL HIDDEN OBJECT, value 0, size 32
 * .note.GNU-stack (empty)
 * </pre>
 *
 * The pointers, their order and the hidden definition are GCC 12's (4 entries; GCC 14 has 6).
 */
public final class OffloadTableObject {
  /** The bracket symbols, in table order. */
  static final List<String> BRACKETS =
      List.of(
          "__offload_func_table",
          "__offload_funcs_end",
          "__offload_var_table",
          "__offload_vars_end");

  private OffloadTableObject() {}

  /** The object's bytes (always the same). */
  public static byte[] bytes() {
    ElfObjectBuilder b = new ElfObjectBuilder();
    b.fileSymbol("crtoffloadtable.c");
    ElfObjectBuilder.SectionHandle relro =
        b.section(
            ".data.rel.ro",
            SectionType.PROGBITS,
            Set.of(SectionFlag.WRITE, SectionFlag.ALLOC),
            8,
            new byte[8 * BRACKETS.size()]);
    b.symbol(
        "__OFFLOAD_TABLE__",
        SymbolBinding.GLOBAL,
        SymbolType.OBJECT,
        SymbolVisibility.HIDDEN,
        relro,
        0,
        8L * BRACKETS.size());
    for (int i = 0; i < BRACKETS.size(); i++) {
      ElfObjectBuilder.SymbolHandle target = b.undefined(BRACKETS.get(i), SymbolVisibility.HIDDEN);
      b.rela(relro, 8L * i, X86_64Relocation.R_64, target, 0);
    }
    return b.toBytes();
  }
}
