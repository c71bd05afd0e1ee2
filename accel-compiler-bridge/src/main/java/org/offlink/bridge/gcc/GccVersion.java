package org.offlink.bridge.gcc;

/**
 * A GCC version as printed by {@code -dumpfullversion} ({@code 12.2.0}) or {@code -dumpversion}
 * (Debian prints just {@code 12}); missing parts are 0.
 */
public record GccVersion(int major, int minor, int patch) {
  /** Checks the parts are non-negative. */
  public GccVersion {
    if (major < 0 || minor < 0 || patch < 0) {
      throw new IllegalArgumentException("negative version part");
    }
  }

  /** Parses {@code 12}, {@code 12.2} or {@code 12.2.0}. */
  public static GccVersion parse(String text) {
    String[] parts = text.trim().split("\\.");
    if (parts.length > 3 || parts[0].isEmpty()) {
      throw new IllegalArgumentException("not a GCC version: '" + text.trim() + "'");
    }
    int[] v = new int[3];
    for (int i = 0; i < parts.length; i++) {
      try {
        v[i] = Integer.parseInt(parts[i]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("not a GCC version: '" + text.trim() + "'", e);
      }
    }
    return new GccVersion(v[0], v[1], v[2]);
  }

  @Override
  public String toString() {
    return major + "." + minor + "." + patch;
  }
}
