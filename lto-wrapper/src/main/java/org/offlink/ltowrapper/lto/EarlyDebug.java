package org.offlink.ltowrapper.lto;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.offlink.ltowrapper.RunContext;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.run.LtoWrapperException;
import org.offlink.streamer.io.WorkingDirectory;

/**
 * Early debug objects (LW:1167): for each LTO input with {@code .gnu.debuglto_.debug_info}, a copy
 * of its early debug sections named {@code <spelling>.debug.temp.o} with {@code -save-temps}, else
 * a temp file; skipped entirely with a link-time {@code -g0}.
 */
final class EarlyDebug {
  private final RunContext ctx;

  EarlyDebug(RunContext ctx) {
    this.ctx = ctx;
  }

  List<String> copyAll(List<InputFile> objects, boolean rename) {
    List<String> names = new ArrayList<>();
    if (ctx.settings().skipDebug()) {
      return names;
    }
    for (InputFile in : objects) {
      String name =
          ctx.temps().saveTemps()
              ? in.spelling() + ".debug.temp.o"
              : ctx.temps().create(".debug.temp.o").toString();
      Path out = WorkingDirectory.resolve(ctx.cwd(), name);
      ctx.temps().register(name);
      boolean made;
      try {
        made = ctx.services().earlyDebug().copy(in, out, rename);
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
    ctx.temps().release(name);
    try {
      if (!ctx.temps().saveTemps() || Files.size(out) == 0) {
        Files.deleteIfExists(out);
      }
    } catch (IOException e) {
      // a leftover empty temp file is harmless
    }
  }
}
