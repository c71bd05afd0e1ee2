package org.offlink.ltowrapper.lto;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.offlink.ltowrapper.io.EarlyDebugCopier;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.run.LinkOutputs;
import org.offlink.ltowrapper.run.LtoWrapperException;

/**
 * Early debug objects (LW:1167): for each LTO input with {@code .gnu.debuglto_.debug_info} (known
 * from the input's scan, so an input without it is not opened again), a copy of its early debug
 * sections named {@code <spelling>.debug.temp.o} with {@code -save-temps}, else a temp file;
 * skipped entirely with a link-time {@code -g0}.
 */
final class EarlyDebug {
  private final LinkOutputs outputs;
  private final boolean skip;
  private final EarlyDebugCopier copier;
  private final Predicate<InputFile> hasEarlyDebug;

  /**
   * @param outputs where the copies go
   * @param skip a link-time {@code -g0}: nothing is copied
   * @param copier writes one input's early debug object
   * @param hasEarlyDebug whether an input's scan found early debug info
   */
  EarlyDebug(
      LinkOutputs outputs,
      boolean skip,
      EarlyDebugCopier copier,
      Predicate<InputFile> hasEarlyDebug) {
    this.outputs = outputs;
    this.skip = skip;
    this.copier = copier;
    this.hasEarlyDebug = hasEarlyDebug;
  }

  List<String> copyAll(List<InputFile> objects, boolean rename) {
    List<String> names = new ArrayList<>();
    if (skip) {
      return names;
    }
    for (InputFile in : objects) {
      if (!hasEarlyDebug.test(in)) {
        continue;
      }
      String name =
          outputs.temps().saveTemps()
              ? in.spelling() + ".debug.temp.o"
              : outputs.temps().create(".debug.temp.o").toString();
      Path out = outputs.resolve(name);
      outputs.temps().register(name);
      boolean made;
      try {
        made = copier.copy(outputs.temps().scope(), in, out, rename);
      } catch (IOException e) {
        throw new LtoWrapperException(in.spelling() + ": " + e.getMessage(), e);
      }
      if (made) {
        names.add(name);
      } else {
        deleteQuietly(name, out);
      }
    }
    return names;
  }

  private void deleteQuietly(String name, Path out) {
    outputs.temps().release(name);
    try {
      if (!outputs.temps().saveTemps() || Files.size(out) == 0) {
        Files.deleteIfExists(out);
      }
    } catch (IOException e) {
      // a leftover empty temp file is harmless
    }
  }
}
