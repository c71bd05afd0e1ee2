package org.offlink.streamer.elf;

import java.util.Objects;

/**
 * One section header, with its name resolved.
 *
 * <pre>
 * offset (32/64)  size (32/64)  field
 *  0 /  0           4            sh_name      (index into the section-name string table)
 *  4 /  4           4            sh_type
 *  8 /  8          4 / 8         sh_flags
 * 12 / 16          4 / 8         sh_addr
 * 16 / 24          4 / 8         sh_offset
 * 20 / 32          4 / 8         sh_size
 * 24 / 40           4            sh_link
 * 28 / 44           4            sh_info
 * 32 / 48          4 / 8         sh_addralign
 * 36 / 56          4 / 8         sh_entsize
 * total 40 / 64
 * </pre>
 *
 * @param index position in the section header table
 * @param name the name from the section-name string table ("" for none)
 * @param rawType {@code sh_type}; see {@link #type()}
 * @param flags {@code sh_flags}; see {@link SectionFlags}
 * @param addr {@code sh_addr}
 * @param offset {@code sh_offset}, relative to the start of the object (not of an enclosing
 *     archive)
 * @param size {@code sh_size}
 * @param link {@code sh_link}
 * @param info {@code sh_info}
 * @param addralign {@code sh_addralign}
 * @param entsize {@code sh_entsize}
 */
public record ElfSection(
    int index,
    String name,
    int rawType,
    long flags,
    long addr,
    long offset,
    long size,
    int link,
    int info,
    long addralign,
    long entsize) {

  /** Validates index, name and the unsigned 64-bit fields that must fit a Java long. */
  public ElfSection {
    Objects.requireNonNull(name, "name");
    if (index < 0) {
      throw new IllegalArgumentException("negative section index " + index);
    }
    if (offset < 0 || size < 0) {
      throw new IllegalArgumentException(
          "section " + index + ": offset/size beyond 2^63 (" + offset + ", " + size + ")");
    }
  }

  /** The section type; {@link SectionType#UNKNOWN} when {@link #rawType()} is not named. */
  public SectionType type() {
    return SectionType.fromRaw(rawType);
  }

  /** Whether the section occupies bytes in the file (false for NOBITS and NULL). */
  public boolean hasFileData() {
    return rawType != SectionType.NOBITS.raw() && rawType != SectionType.NULL.raw();
  }

  /** Whether all bits of {@code mask} are set in {@link #flags()}. */
  public boolean hasFlags(long mask) {
    return (flags & mask) == mask;
  }
}
