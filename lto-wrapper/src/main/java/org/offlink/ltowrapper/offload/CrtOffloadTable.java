package org.offlink.ltowrapper.offload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import org.offlink.ltowrapper.RunContext;
import org.offlink.ltowrapper.run.LtoWrapperException;
import org.offlink.streamer.io.WorkingDirectory;

/**
 * The {@code __OFFLOAD_TABLE__} object. GCC 12 (LW:1044–1101) copies the first readable {@code
 * <entry>/crtoffloadtable.o} along {@code LIBRARY_PATH} to {@code <dumppfx>crtoffloadtable.o}
 * (save-temps) or a temp file, because the plugin deletes what it is given; {@code LIBRARY_PATH}
 * unset means no table. offlink does the same for a known {@code exec} link, and otherwise (PIE,
 * shared, relocatable or unknown) writes {@link OffloadTableObject} under the same name with GCC
 * 12, so PIE links get neither text relocations nor ld's warnings about them; with GCC 13+ it
 * copies that GCC's position-independent {@code crtoffloadtableS.o} instead (delta §4.1 L1).
 */
final class CrtOffloadTable {
  private final RunContext ctx;

  CrtOffloadTable(RunContext ctx) {
    this.ctx = ctx;
  }

  /**
   * Creates the object before it is known to be needed (while the accel compilers run, off the
   * link's critical path); a failure is kept for {@link Prepared#take}, where GCC would report it.
   */
  Prepared prepare() {
    try {
      return new Prepared(ctx.cwd(), create(), null);
    } catch (LtoWrapperException e) {
      return new Prepared(ctx.cwd(), Optional.empty(), e);
    }
  }

  /**
   * A table object made ahead of need: {@link #take} it when an image was built, else {@link
   * #discard} it (GCC writes none then).
   */
  record Prepared(Path cwd, Optional<String> name, LtoWrapperException failure) {
    /** The object's name, or the failure to create it. */
    Optional<String> take() {
      if (failure != null) {
        throw failure;
      }
      return name;
    }

    /** Removes the object (also a {@code -save-temps} one, which GCC would not have written). */
    void discard() {
      if (name.isPresent()) {
        try {
          Files.deleteIfExists(WorkingDirectory.resolve(cwd, name.get()));
        } catch (IOException e) {
          // a temp file: removed at exit anyway
        }
      }
    }
  }

  private Optional<String> create() {
    Optional<String> libraryPath = ctx.settings().libraryPath();
    if (libraryPath.isEmpty()) {
      return Optional.empty();
    }
    String variant = "";
    if (ctx.offloadPolicy().positionIndependentTable()) {
      if (!ctx.settings().gccRelease().linkStep().pieTableVariant()) {
        String name = outputName();
        write(name, OffloadTableObject.bytes());
        return Optional.of(name);
      }
      // GCC 13+ ships a position-independent crtoffloadtableS.o (Debian's pr117851; 4 or 6
      // entries as that GCC's libgomp expects): copied like GCC copies it for PIE and shared links.
      variant = "S";
    }
    for (String entry : libraryPath.get().split(":", -1)) {
      Path src = WorkingDirectory.resolve(ctx.cwd(), entry + "/crtoffloadtable" + variant + ".o");
      if (Files.isReadable(src) && !Files.isDirectory(src)) {
        String name = outputName();
        try {
          Files.copy(
              src, WorkingDirectory.resolve(ctx.cwd(), name), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
          throw new LtoWrapperException("writing output file", e);
        }
        return Optional.of(name);
      }
    }
    throw new LtoWrapperException(
        "installation error, cannot find %<crtoffloadtable" + variant + ".o%>");
  }

  private String outputName() {
    if (ctx.temps().saveTemps()) {
      String name = ctx.dump().named("crtoffloadtable.o");
      ctx.temps().register(name);
      return name;
    }
    return ctx.temps().create(".crtoffloadtable.o").toString();
  }

  private void write(String name, byte[] bytes) {
    try {
      Files.write(WorkingDirectory.resolve(ctx.cwd(), name), bytes);
    } catch (IOException e) {
      throw new LtoWrapperException("writing output file", e);
    }
  }
}
