package org.offlink.streamer.elf;

/** Section flag bits ({@code sh_flags}); {@link ElfSection#flags()} keeps the raw mask. */
public final class SectionFlags {
  /** Writable at run time. */
  public static final long WRITE = 0x1;

  /** Occupies memory at run time. */
  public static final long ALLOC = 0x2;

  /** Executable code. */
  public static final long EXECINSTR = 0x4;

  /** Mergeable contents. */
  public static final long MERGE = 0x10;

  /** NUL-terminated strings. */
  public static final long STRINGS = 0x20;

  /** {@code sh_info} holds a section index. */
  public static final long INFO_LINK = 0x40;

  /** Ordering follows the section named by {@code sh_link}. */
  public static final long LINK_ORDER = 0x80;

  /** Member of a section group. */
  public static final long GROUP = 0x200;

  /** Thread-local storage. */
  public static final long TLS = 0x400;

  /** Compressed contents. */
  public static final long COMPRESSED = 0x800;

  /**
   * Excluded from the linked output ({@code SHF_EXCLUDE}); GCC marks every {@code .gnu.lto_*} and
   * {@code .gnu.offload_lto_*} section with it.
   */
  public static final long EXCLUDE = 0x80000000L;

  private SectionFlags() {}
}
