package org.offlink.streamer.inspect;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfSection;

/**
 * Reads the host offload tables of a linked image.
 *
 * <pre>
 * .gnu.offload_funcs   8 bytes per entry: address of the outlined function
 * .gnu.offload_vars   16 bytes per entry: address (8), size (8; bit 63 = declare target link)
 * .gnu.offload_ind_funcs  8 bytes per entry: address of an indirect function (GCC 14+)
 * </pre>
 *
 * Addresses go through {@link ImageMemory#pointer}, so PIE and shared objects (whose table words
 * are RELATIVE relocations) read the same as non-PIE executables.
 */
public final class HostTableReader {
  private static final long LINK_BIT = 1L << 63;

  private HostTableReader() {}

  /** The tables of {@code elf}; empty lists when a section is absent. */
  public static InspectedHostTables read(ElfFile elf, ImageMemory memory, SymbolIndex symbols)
      throws IOException {
    List<HostFunction> funcs = functions(elf, memory, symbols, ".gnu.offload_funcs");
    List<HostVariable> vars = new ArrayList<>();
    Optional<ElfSection> v = elf.section(".gnu.offload_vars");
    if (v.isPresent()) {
      checkMultiple(elf, v.get(), 16);
      for (long at = v.get().addr(); at < v.get().addr() + v.get().size(); at += 16) {
        long address = memory.pointer(at);
        long size = memory.u64(at + 8);
        vars.add(
            new HostVariable(
                address,
                symbols.nameAt(address).orElse(""),
                size & ~LINK_BIT,
                (size & LINK_BIT) != 0));
      }
    }
    return new InspectedHostTables(
        funcs, vars, functions(elf, memory, symbols, ".gnu.offload_ind_funcs"));
  }

  private static List<HostFunction> functions(
      ElfFile elf, ImageMemory memory, SymbolIndex symbols, String name) throws IOException {
    List<HostFunction> funcs = new ArrayList<>();
    Optional<ElfSection> f = elf.section(name);
    if (f.isPresent()) {
      checkMultiple(elf, f.get(), 8);
      for (long at = f.get().addr(); at < f.get().addr() + f.get().size(); at += 8) {
        long address = memory.pointer(at);
        funcs.add(new HostFunction(address, symbols.nameAt(address).orElse("")));
      }
    }
    return funcs;
  }

  private static void checkMultiple(ElfFile elf, ElfSection s, int entry)
      throws MalformedObjectException {
    if (s.size() % entry != 0) {
      throw new MalformedObjectException(
          elf.path(),
          elf.baseOffset() + s.offset(),
          String.format(
              "section %s: expected a multiple of %d bytes, found %d", s.name(), entry, s.size()));
    }
  }
}
