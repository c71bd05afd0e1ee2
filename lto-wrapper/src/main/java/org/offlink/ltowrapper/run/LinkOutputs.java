package org.offlink.ltowrapper.run;

import java.nio.file.Path;
import java.util.Objects;
import org.offlink.runtime.WorkingDirectory;

/**
 * Where one run's files go, by GCC's rule: with {@code -save-temps} under the dump prefix ({@code
 * <dumppfx><name>}, kept), otherwise as fresh temporary files removed at the end; names are as
 * printed, resolved against the working directory.
 *
 * @param temps the run's temporary files
 * @param dump the dump prefix
 * @param cwd the working directory
 */
public record LinkOutputs(LinkTemps temps, DumpNames dump, Path cwd) {
  /** Checks the fields. */
  public LinkOutputs {
    Objects.requireNonNull(temps, "temps");
    Objects.requireNonNull(dump, "dump");
    Objects.requireNonNull(cwd, "cwd");
  }

  /**
   * A new output's name: {@code <dumppfx><kept>} (registered for the end-of-run bookkeeping) with
   * {@code -save-temps}, else a new temporary file ending in {@code tempSuffix}.
   */
  public String name(String kept, String tempSuffix) {
    if (temps.saveTemps()) {
      String name = dump.named(kept);
      temps.register(name);
      return name;
    }
    return temps.create(tempSuffix).toString();
  }

  /** {@code name} (as printed) resolved against the working directory. */
  public Path resolve(String name) {
    return WorkingDirectory.resolve(cwd, name);
  }
}
