package org.offlink.streamer.lto;

import java.util.Optional;

/** The section-name prefixes of GCC's LTO streams (lto-section-names.h). */
public enum LtoPrefix {
  /** Host LTO IR, written with {@code -flto}. */
  HOST(".gnu.lto_"),
  /** Offload IR, written for {@code -foffload} targets. */
  OFFLOAD(".gnu.offload_lto_"),
  /** The offload prefix of GCC 5 to 7, before it was renamed; recognised, never written. */
  LEGACY(".gnu.target_lto_");

  private final String text;

  LtoPrefix(String text) {
    this.text = text;
  }

  /** The prefix text, e.g. {@code .gnu.offload_lto_}. */
  public String text() {
    return text;
  }

  /** The prefix {@code sectionName} starts with, if any. */
  public static Optional<LtoPrefix> of(String sectionName) {
    for (LtoPrefix p : values()) {
      if (sectionName.startsWith(p.text)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }
}
