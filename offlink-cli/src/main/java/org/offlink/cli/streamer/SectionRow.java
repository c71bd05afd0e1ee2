package org.offlink.cli.streamer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.offlink.streamer.elf.ElfClass;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.lto.HostOffloadTable;
import org.offlink.streamer.lto.LtoCompression;
import org.offlink.streamer.lto.LtoHeader;
import org.offlink.streamer.lto.LtoPrefix;
import org.offlink.streamer.lto.LtoSectionKind;
import org.offlink.streamer.lto.LtoSectionName;

/**
 * One row of {@code list}: an LTO/offload section or a host offload table, with its decoded kind,
 * compression (from its stream's {@code .lto.} header) and, for host tables, the entry count.
 */
record SectionRow(
    String name, long size, String stream, String kind, String compression, long entries) {

  /** The rows of every offload-related section of {@code elf}, in section-table order. */
  static List<SectionRow> of(ElfFile elf) throws IOException {
    Map<LtoPrefix, Optional<LtoHeader>> headers = new LinkedHashMap<>();
    boolean elf64 = elf.header().elfClass() == ElfClass.ELF64;
    List<SectionRow> rows = new ArrayList<>();
    for (ElfSection s : elf.sections()) {
      Optional<HostOffloadTable> table = HostOffloadTable.ofSection(s.name());
      if (table.isPresent()) {
        long n = table.get().entryCount(elf.path(), s.size(), elf64);
        rows.add(new SectionRow(s.name(), s.size(), "host", "offload table", "none", n));
        continue;
      }
      Optional<LtoSectionName> parsed = LtoSectionName.parse(s.name());
      if (parsed.isEmpty()) {
        continue;
      }
      LtoSectionName name = parsed.get();
      Optional<LtoHeader> header = headers.computeIfAbsent(name.prefix(), p -> Optional.empty());
      if (header.isEmpty()) {
        header = SectionData.header(elf, name.prefix());
        headers.put(name.prefix(), header);
      }
      rows.add(
          new SectionRow(
              s.name(),
              s.size(),
              streamOf(name.prefix()),
              name.kindWord(),
              compressionOf(name.kind(), header),
              -1));
    }
    return rows;
  }

  private static String streamOf(LtoPrefix prefix) {
    return switch (prefix) {
      case HOST -> "host-lto";
      case OFFLOAD -> "offload";
      case LEGACY -> "offload-legacy";
    };
  }

  private static String compressionOf(LtoSectionKind kind, Optional<LtoHeader> header) {
    if (!kind.isCompressed()) {
      return "none";
    }
    return header
        .map(LtoHeader::compression)
        .map(c -> c == LtoCompression.UNKNOWN ? "unknown" : c.name().toLowerCase())
        .orElse("unknown (no .lto header)");
  }

  /** The row as a JSON-ready map. */
  Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", name);
    m.put("size", size);
    m.put("stream", stream);
    m.put("kind", kind);
    m.put("compression", compression);
    if (entries >= 0) {
      m.put("entries", entries);
    }
    return m;
  }
}
