package org.offlink.bridge.wrapper;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.offlink.streamer.elf.SectionType;
import org.offlink.streamer.elf.SymbolBinding;
import org.offlink.streamer.elf.SymbolType;
import org.offlink.streamer.elf.SymbolVisibility;
import org.offlink.streamer.write.ElfNotes;
import org.offlink.streamer.write.ElfObjectBuilder;
import org.offlink.streamer.write.ElfObjectBuilder.SectionHandle;
import org.offlink.streamer.write.ElfObjectBuilder.SymbolHandle;
import org.offlink.streamer.write.SectionFlag;
import org.offlink.streamer.write.X86_64Relocation;

/**
 * Turns the data blocks of a wrapper into the relocatable object GCC's host compile of the
 * generated C would give: {@code .text} with {@code init} and {@code fini}, the data sections,
 * {@code .init_array}/{@code .fini_array} entries, {@code .note.GNU-stack} and an x86 IBT+SHSTK
 * {@code .note.gnu.property} (the code is CET-clean: {@code endbr64} at both entries, no stack
 * switching), so a CET link keeps the property.
 */
final class WrapperElfAssembler {
  static final String REGISTER = "GOMP_offload_register_ver";
  static final String UNREGISTER = "GOMP_offload_unregister_ver";
  static final String OFFLOAD_TABLE = "__OFFLOAD_TABLE__";

  // Set.of, not EnumSet: EnumSet finds an enum's constants by reflection on first use, which
  // costs about a millisecond on the link's critical path, where this runs once and cold.
  private static final Set<SectionFlag> A = Set.of(SectionFlag.ALLOC);
  private static final Set<SectionFlag> WA = Set.of(SectionFlag.WRITE, SectionFlag.ALLOC);
  private static final Set<SectionFlag> AX = Set.of(SectionFlag.ALLOC, SectionFlag.EXECINSTR);

  private WrapperElfAssembler() {}

  /**
   * Assembles the object.
   *
   * @param blocks data blocks in section order; writable ones are named {@code .data*}
   * @param targetData the block holding {@code target_data}
   * @param targetDataOffset its offset there
   */
  static byte[] assemble(
      List<DataBlock> blocks,
      DataBlock targetData,
      long targetDataOffset,
      int version,
      int device) {
    ElfObjectBuilder b = new ElfObjectBuilder();
    byte[] init = RegistrationCode.function(version, device);
    byte[] fini = RegistrationCode.function(version, device);
    byte[] code = new byte[init.length + fini.length];
    System.arraycopy(init, 0, code, 0, init.length);
    System.arraycopy(fini, 0, code, init.length, fini.length);
    SectionHandle text = b.section(".text", SectionType.PROGBITS, AX, 1, code);

    Map<DataBlock, SectionHandle> handles = new IdentityHashMap<>();
    for (DataBlock block : blocks) {
      Set<SectionFlag> flags = block.sectionName().startsWith(".data") ? WA : A;
      // The blocks were built for this object alone: their arrays are handed over, not copied.
      handles.put(
          block,
          block.buffer() == null
              ? b.reservedSection(
                  block.sectionName(),
                  SectionType.PROGBITS,
                  flags,
                  block.alignment(),
                  (int) block.size())
              : b.adoptSection(
                  block.sectionName(),
                  SectionType.PROGBITS,
                  flags,
                  block.alignment(),
                  block.buffer(),
                  (int) block.size()));
    }
    SectionHandle initArray =
        b.section(".init_array", SectionType.INIT_ARRAY, WA, 8, 8, new byte[8]);
    SectionHandle finiArray =
        b.section(".fini_array", SectionType.FINI_ARRAY, WA, 8, 8, new byte[8]);
    b.section(ElfObjectBuilder.GNU_STACK, SectionType.PROGBITS, Set.of(), 1, new byte[0]);
    b.section(
        ElfNotes.GNU_PROPERTY_SECTION,
        SectionType.NOTE,
        A,
        8,
        ElfNotes.gnuPropertyX86Feature1(ElfNotes.X86_FEATURE_1_IBT | ElfNotes.X86_FEATURE_1_SHSTK));

    // Locals as GCC names them (handy in gdb/nm), then the three external references.
    SymbolHandle textSym = b.sectionSymbol(text);
    for (DataBlock block : blocks) {
      SectionHandle h = handles.get(block);
      b.sectionSymbol(h);
      for (DataBlock.Placement p : block.objects()) {
        b.symbol(
            p.name(),
            SymbolBinding.LOCAL,
            SymbolType.OBJECT,
            SymbolVisibility.DEFAULT,
            h,
            p.offset(),
            p.size());
      }
    }
    b.symbol("init", SymbolBinding.LOCAL, SymbolType.FUNC, SymbolVisibility.DEFAULT, text, 0, 42);
    b.symbol("fini", SymbolBinding.LOCAL, SymbolType.FUNC, SymbolVisibility.DEFAULT, text, 42, 42);
    // Hidden: crtoffloadtable.o defines it in the same module, so a PC-relative lea is exact in
    // PIE, non-PIE and -shared links alike (GCC's C goes through the GOT and lets ld relax it).
    SymbolHandle table = b.undefined(OFFLOAD_TABLE, SymbolVisibility.HIDDEN);
    SymbolHandle register = b.undefined(REGISTER, SymbolVisibility.DEFAULT);
    SymbolHandle unregister = b.undefined(UNREGISTER, SymbolVisibility.DEFAULT);

    for (DataBlock block : blocks) {
      for (DataBlock.Pointer p : block.pointers()) {
        b.rela(
            handles.get(block),
            p.offset(),
            X86_64Relocation.R_64,
            b.sectionSymbol(handles.get(p.target())),
            p.addend());
      }
    }
    SymbolHandle tdSection = b.sectionSymbol(handles.get(targetData));
    SymbolHandle[] calls = {register, unregister};
    for (int f = 0; f < 2; f++) {
      long base = (long) f * RegistrationCode.SIZE;
      b.rela(
          text,
          base + RegistrationCode.TARGET_DATA_REL,
          X86_64Relocation.PC32,
          tdSection,
          targetDataOffset - 4);
      b.rela(text, base + RegistrationCode.OFFLOAD_TABLE_REL, X86_64Relocation.PC32, table, -4);
      b.rela(text, base + RegistrationCode.CALL_REL, X86_64Relocation.PLT32, calls[f], -4);
    }
    b.rela(initArray, 0, X86_64Relocation.R_64, textSym, 0);
    b.rela(finiArray, 0, X86_64Relocation.R_64, textSym, RegistrationCode.SIZE);
    return b.toBytes();
  }
}
