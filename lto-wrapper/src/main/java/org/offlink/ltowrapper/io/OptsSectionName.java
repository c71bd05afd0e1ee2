package org.offlink.ltowrapper.io;

/** Which options section of an object lto-wrapper reads (§2.4). */
public enum OptsSectionName {
  /** {@code .gnu.lto_.opts}: host LTO options. */
  HOST_LTO(".gnu.lto_.opts"),
  /** {@code .gnu.offload_lto_.opts}: options recorded for the offload compilers. */
  OFFLOAD(".gnu.offload_lto_.opts");

  private final String sectionName;

  OptsSectionName(String sectionName) {
    this.sectionName = sectionName;
  }

  /** The ELF section name. */
  public String sectionName() {
    return sectionName;
  }
}
