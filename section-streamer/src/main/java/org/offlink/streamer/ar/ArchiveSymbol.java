package org.offlink.streamer.ar;

import java.util.Objects;

/**
 * One entry of an archive's symbol index ({@code /}, {@code /SYM64/} or {@code __.SYMDEF}).
 *
 * @param name the symbol
 * @param memberHeaderOffset offset of the defining member's header, as stored in the index; match
 *     it with {@link ArchiveMember#headerOffset()}
 */
public record ArchiveSymbol(String name, long memberHeaderOffset) {
  /** Validates the offset. */
  public ArchiveSymbol {
    Objects.requireNonNull(name, "name");
    if (memberHeaderOffset < 0) {
      throw new IllegalArgumentException("negative member offset for symbol " + name);
    }
  }
}
