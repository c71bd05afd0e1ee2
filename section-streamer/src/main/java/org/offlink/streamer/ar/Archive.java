package org.offlink.streamer.ar;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * An {@code ar} archive's table of contents: members in file order (symbol table and long-name
 * table excluded) and the symbol index. Immutable; holds no member data.
 *
 * @param path the archive file as given to {@link ArchiveReader#read(Path)}
 * @param kind GNU, BSD or thin
 * @param members the members in archive order
 * @param symbols the symbol index in stored order, empty when the archive has none
 */
public record Archive(
    Path path, ArchiveKind kind, List<ArchiveMember> members, List<ArchiveSymbol> symbols) {

  /** Copies the lists. */
  public Archive {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(kind, "kind");
    members = List.copyOf(members);
    symbols = List.copyOf(symbols);
  }

  /**
   * How GCC's linker plugin names {@code member} in {@code -foffload-objects} lists and lto-wrapper
   * arguments: {@code archive@0x<data offset>}, or for a thin archive the external file's path (the
   * linker opens it directly, offset 0).
   */
  public MemberSpec specOf(ArchiveMember member) {
    return member
        .externalFile()
        .map(f -> new MemberSpec(f.toString(), 0))
        .orElseGet(() -> new MemberSpec(path.toString(), member.dataOffset()));
  }
}
