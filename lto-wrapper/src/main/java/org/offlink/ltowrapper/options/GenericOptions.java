package org.offlink.ltowrapper.options;

import java.util.Set;

/**
 * Classification of options that are not in {@link GccOption}'s table. GCC decodes them with its
 * full option table; we only need the class that decides forwarding. {@code -m...} is a target
 * option; {@code -f...}, {@code -W...}, {@code -O...}, {@code -g...} are common options (lto1
 * silently ignores inherited front-end options that do not apply to LTO, so forwarding a
 * language-only {@code -f} is harmless); a short list of driver options is kept; anything else is
 * unknown and dropped.
 */
final class GenericOptions {
  private GenericOptions() {}

  static Set<OptionTrait> traits(String text) {
    if (text.startsWith("-m")) {
      return Set.of(OptionTrait.TARGET);
    }
    if (text.startsWith("-f") || text.startsWith("-W") || text.startsWith("-g")) {
      return Set.of(OptionTrait.COMMON);
    }
    for (String driver : DRIVER_OPTIONS) {
      if (driver.endsWith("=") ? text.startsWith(driver) : text.equals(driver)) {
        return Set.of(OptionTrait.DRIVER);
      }
    }
    return Set.of();
  }

  /** Driver-only options the GCC driver records in COLLECT_GCC_OPTIONS at link time. */
  private static final String[] DRIVER_OPTIONS = {
    "-pthread",
    "-static",
    "-static-libgcc",
    "-static-libstdc++",
    "-static-libgfortran",
    "-nostdlib",
    "-nostartfiles",
    "-nodefaultlibs",
    "-rdynamic",
    "-s",
    "-symbolic",
    "-pipe",
    "-time",
    "-no-canonical-prefixes",
    "-specs=",
    "--sysroot=",
    "-p",
    "-pg",
    "-coverage",
    "-shared-libgcc",
    "-r"
  };

  /**
   * The merge identity: {@code -mno-foo}/{@code -mfoo} and {@code -march=a}/{@code -march=b} are
   * the same option, as in GCC's option index.
   */
  static String key(String text) {
    String name = text;
    int eq = name.indexOf('=');
    if (eq > 0) {
      name = name.substring(0, eq + 1);
    }
    for (String prefix : new String[] {"-fno-", "-mno-", "-Wno-"}) {
      if (name.startsWith(prefix)) {
        return name.substring(0, 2) + name.substring(prefix.length());
      }
    }
    return name;
  }

  static boolean negative(String text) {
    return text.startsWith("-fno-") || text.startsWith("-mno-") || text.startsWith("-Wno-");
  }
}
