package org.offlink.bridge.gcn;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.offlink.bridge.gcc.OffloadOptions;
import org.offlink.bridge.temp.TempFiles;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.LinkScope;
import org.offlink.runtime.NamedFiles;
import org.offlink.runtime.WorkingDirectory;
import org.offlink.streamer.edit.LtoDebugSectionCopier;

/**
 * gcn mkoffload's early debug objects (GCC 12 {@code main} and {@code copy_early_debug_info},
 * reference §4.6): every argument ending in {@code .o} (archive members {@code lib.a@0x..} never
 * do) that holds {@code .gnu.debuglto_.debug_info} gives an AMDGCN copy of its early debug
 * sections, linked into the HSACO so a device debugger sees the types, macros and file names.
 *
 * <p>Names: {@code <dumppfx>.mkoffload.dbg<N>.o} with {@code -save-temps}, N counting every {@code
 * .o} argument tried; otherwise a {@code ccXXXXXX.mkoffload.dbg.o} temp file, removed when the
 * scope closes whether or not a copy was written (GCC 12 leaks the empty one).
 */
final class GcnEarlyDebug {
  private GcnEarlyDebug() {}

  /** Writes the copies and returns their names, in argument order, for the link line. */
  static List<String> copyAll(
      OffloadOptions options, GcnTargetSettings settings, TempFiles temps, LinkContext context)
      throws IOException {
    Path cwd = context.workingDirectory();
    List<String> made = new ArrayList<>();
    int attempted = 0;
    for (String arg : options.forwarded()) {
      if (!arg.endsWith(".o")) {
        continue;
      }
      String saved = options.names().mkoffload(".dbg" + attempted++ + ".o");
      String name = options.saveTemps() ? saved : temps.scratch(".mkoffload.dbg.o").toString();
      Path output = WorkingDirectory.resolve(cwd, name);
      if (copy(context.scope(), WorkingDirectory.resolve(cwd, arg), output, settings)) {
        if (options.saveTemps()) {
          temps.named(saved, ".mkoffload.dbg.o");
        }
        made.add(name);
      }
    }
    return made;
  }

  private static boolean copy(LinkScope scope, Path input, Path output, GcnTargetSettings settings)
      throws IOException {
    if (!Files.isRegularFile(input)) {
      return false; // GCC 12 skips what it cannot open
    }
    // Like GCC: libiberty writes the copy (mode 0777 less the umask when new), then it is patched
    // in place.
    if (!LtoDebugSectionCopier.copy(scope, input, 0, Files.size(input), output, true)) {
      return false;
    }
    byte[] object = Files.readAllBytes(output);
    GcnDebugObject.patch(object, settings, output);
    NamedFiles.write(scope, output, object);
    return true;
  }
}
