package org.offlink.streamer.ar;

/**
 * The flavour of an {@code ar} archive.
 *
 * <ul>
 *   <li>{@link #GNU}: magic {@code !<arch>\n}, names terminated by {@code /}, long names in the
 *       {@code //} table referenced as {@code /N}, symbol table {@code /} or {@code /SYM64/}.
 *   <li>{@link #BSD}: magic {@code !<arch>\n}, long names inline as {@code #1/N} (the first N data
 *       bytes), symbol table {@code __.SYMDEF} (little-endian, as written by llvm-ar and cctools).
 *   <li>{@link #THIN}: magic {@code !<thin>\n}, GNU naming, member data lives in external files
 *       named relative to the archive's directory.
 * </ul>
 */
public enum ArchiveKind {
  GNU,
  BSD,
  THIN
}
