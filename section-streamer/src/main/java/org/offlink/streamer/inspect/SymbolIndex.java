package org.offlink.streamer.inspect;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfSymbol;
import org.offlink.streamer.elf.SymbolType;

/**
 * The defined function and object symbols of an object, by address and by name: {@code .symtab}
 * first (it has the local symbols such as {@code main._omp_fn.0} and {@code target_data}), then
 * {@code .dynsym} for stripped files. At one address the first symbol in table order wins, the way
 * the registration spy of the integration tests looks names up.
 */
public final class SymbolIndex {
  private final List<ElfSymbol> symbols;
  private final Map<Long, String> byAddress;

  private SymbolIndex(List<ElfSymbol> symbols) {
    this.symbols = List.copyOf(symbols);
    Map<Long, String> names = new HashMap<>();
    for (ElfSymbol s : symbols) {
      names.putIfAbsent(s.value(), s.name());
    }
    this.byAddress = names;
  }

  /** Indexes the symbols of {@code elf}. */
  public static SymbolIndex of(ElfFile elf) throws IOException {
    List<ElfSymbol> defined = new ArrayList<>();
    addDefined(elf.symbols(), defined);
    addDefined(elf.dynamicSymbols(), defined);
    return new SymbolIndex(defined);
  }

  private static void addDefined(List<ElfSymbol> from, List<ElfSymbol> to) {
    for (ElfSymbol s : from) {
      boolean kind = s.type() == SymbolType.FUNC || s.type() == SymbolType.OBJECT;
      if (kind && s.sectionIndex() != ElfSymbol.SHN_UNDEF && !s.name().isEmpty()) {
        to.add(s);
      }
    }
  }

  /** The name of the function or object defined at {@code address}. */
  public Optional<String> nameAt(long address) {
    return Optional.ofNullable(byAddress.get(address));
  }

  /** The defined symbols called {@code name}, in table order (.symtab before .dynsym). */
  public List<ElfSymbol> named(String name) {
    return symbols.stream().filter(s -> s.name().equals(name)).toList();
  }
}
