package org.offlink.streamer.write;

import java.util.Set;

/** The {@code sh_flags} bits the writer can emit ({@code SHF_*}). */
public enum SectionFlag {
  /** {@code SHF_WRITE} ("W"). */
  WRITE(0x1),
  /** {@code SHF_ALLOC} ("A"). */
  ALLOC(0x2),
  /** {@code SHF_EXECINSTR} ("X"). */
  EXECINSTR(0x4),
  /** {@code SHF_MERGE} ("M"); needs an entry size. */
  MERGE(0x10),
  /** {@code SHF_STRINGS} ("S"). */
  STRINGS(0x20),
  /** {@code SHF_INFO_LINK} ("I"); set by the writer on RELA sections. */
  INFO_LINK(0x40),
  /** {@code SHF_EXCLUDE} ("E"). */
  EXCLUDE(0x8000_0000L);

  private final long bit;

  SectionFlag(long bit) {
    this.bit = bit;
  }

  /** The raw bit. */
  public long bit() {
    return bit;
  }

  /** ORs the bits of {@code flags}. */
  public static long mask(Set<SectionFlag> flags) {
    long m = 0;
    for (SectionFlag f : flags) {
      m |= f.bit;
    }
    return m;
  }
}
