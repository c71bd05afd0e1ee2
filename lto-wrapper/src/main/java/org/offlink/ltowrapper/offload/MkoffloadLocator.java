package org.offlink.ltowrapper.offload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds {@code accel/<target>/mkoffload} along {@code COMPILER_PATH} exactly as GCC 12 does
 * (LW:920): each colon-separated entry is used verbatim with {@code /accel/<target>/mkoffload}
 * appended (entries already end in {@code /}, hence the observed {@code //}), and the first
 * executable non-directory wins. Empty entries are kept, giving {@code /accel/...}.
 */
public final class MkoffloadLocator {
  private final Path cwd;

  /** Creates a locator resolving relative entries against {@code cwd}. */
  public MkoffloadLocator(Path cwd) {
    this.cwd = cwd;
  }

  /** The suffix searched for, {@code accel/<target>/mkoffload}. */
  public static String relativeName(String target) {
    return "accel/" + target + "/mkoffload";
  }

  /** The mkoffload path as GCC spells it, or empty if no entry has one. */
  public Optional<String> find(String compilerPath, String target) {
    for (String entry : compilerPath.split(":", -1)) {
      String candidate = entry + "/" + relativeName(target);
      Path p = cwd.resolve(candidate);
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
