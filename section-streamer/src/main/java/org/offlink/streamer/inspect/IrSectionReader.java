package org.offlink.streamer.inspect;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.offlink.streamer.elf.ElfClass;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.lto.HostOffloadTable;
import org.offlink.streamer.lto.LtoSectionName;

/** Lists the {@link IrSection}s of one object, in section-table order. */
public final class IrSectionReader {
  private IrSectionReader() {}

  /** The offload IR sections and host tables of {@code elf}. */
  public static List<IrSection> read(ElfFile elf) throws IOException {
    boolean elf64 = elf.header().elfClass() == ElfClass.ELF64;
    List<IrSection> rows = new ArrayList<>();
    for (ElfSection s : elf.sections()) {
      Optional<HostOffloadTable> table = HostOffloadTable.ofSection(s.name());
      if (table.isPresent()) {
        long n = table.get().entryCount(elf.path(), s.size(), elf64);
        rows.add(new IrSection(s.name(), s.size(), "host", "offload table", n));
        continue;
      }
      Optional<LtoSectionName> parsed = LtoSectionName.parse(s.name());
      if (parsed.isPresent()) {
        String stream =
            switch (parsed.get().prefix()) {
              case HOST -> "host-lto";
              case OFFLOAD -> "offload";
              case LEGACY -> "offload-legacy";
            };
        rows.add(new IrSection(s.name(), s.size(), stream, parsed.get().kindWord(), -1));
      }
    }
    return rows;
  }
}
