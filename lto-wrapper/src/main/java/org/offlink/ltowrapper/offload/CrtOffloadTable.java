package org.offlink.ltowrapper.offload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import org.offlink.ltowrapper.LtoWrapperException;
import org.offlink.ltowrapper.RunContext;

/**
 * The {@code crtoffloadtable.o} copy (LW:1044–1101): the first readable {@code
 * <entry>/crtoffloadtable.o} along {@code LIBRARY_PATH} is copied to {@code
 * <dumppfx>crtoffloadtable.o} (save-temps) or a temp file, because the plugin deletes what it is
 * given. {@code LIBRARY_PATH} unset means no copy.
 */
final class CrtOffloadTable {
  private final RunContext ctx;

  CrtOffloadTable(RunContext ctx) {
    this.ctx = ctx;
  }

  Optional<String> copy() {
    Optional<String> libraryPath = ctx.settings().libraryPath();
    if (libraryPath.isEmpty()) {
      return Optional.empty();
    }
    for (String entry : libraryPath.get().split(":", -1)) {
      Path src = ctx.cwd().resolve(entry + "/crtoffloadtable.o");
      if (Files.isReadable(src) && !Files.isDirectory(src)) {
        String name;
        if (ctx.temps().saveTemps()) {
          name = ctx.dump().named("crtoffloadtable.o");
          ctx.temps().register(name);
        } else {
          name = ctx.temps().create(".crtoffloadtable.o").toString();
        }
        try {
          Files.copy(src, ctx.cwd().resolve(name), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
          throw new LtoWrapperException("writing output file", e);
        }
        return Optional.of(name);
      }
    }
    throw new LtoWrapperException("installation error, cannot find %<crtoffloadtable.o%>");
  }
}
