package org.offlink.bridge.partition;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;
import org.offlink.streamer.elf.ElfSymbol;
import org.offlink.streamer.elf.SymbolBinding;
import org.offlink.streamer.elf.SymbolType;

/**
 * Reads a gcn partition's {@link PartitionSymbols} from its assembled object's symbol table:
 * defined symbols with their binding, undefined ones as mentioned; the registered names are the
 * partition's kernels, given by the caller.
 */
public final class ElfSymbolReader {
  private ElfSymbolReader() {}

  /** The symbols of the object {@code file}. */
  public static PartitionSymbols read(Path file, Set<String> registered) throws IOException {
    Map<String, PartitionSymbols.Linkage> defined = new HashMap<>();
    Set<String> mentioned = new HashSet<>();
    try (ElfFile elf = ElfReader.read(file)) {
      for (ElfSymbol s : elf.symbols()) {
        if (s.name().isEmpty() || s.type() == SymbolType.FILE || s.type() == SymbolType.SECTION) {
          continue;
        }
        if (s.sectionIndex() == ElfSymbol.SHN_UNDEF) {
          mentioned.add(s.name());
        } else {
          defined.merge(s.name(), linkage(s.binding()), (a, b) -> a);
        }
      }
    }
    mentioned.removeAll(defined.keySet());
    return new PartitionSymbols(defined, mentioned, registered);
  }

  private static PartitionSymbols.Linkage linkage(SymbolBinding b) {
    return switch (b) {
      case LOCAL -> PartitionSymbols.Linkage.LOCAL;
      case WEAK -> PartitionSymbols.Linkage.WEAK;
      default -> PartitionSymbols.Linkage.GLOBAL;
    };
  }
}
