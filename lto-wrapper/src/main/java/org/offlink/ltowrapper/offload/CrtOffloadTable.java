package org.offlink.ltowrapper.offload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.offlink.ltowrapper.run.LinkOutputs;
import org.offlink.ltowrapper.run.LtoWrapperException;
import org.offlink.runtime.NamedFiles;
import org.offlink.runtime.WorkingDirectory;

/**
 * The {@code __OFFLOAD_TABLE__} object. GCC 12 (LW:1044–1101) copies the first readable {@code
 * <entry>/crtoffloadtable.o} along {@code LIBRARY_PATH} to {@code <dumppfx>crtoffloadtable.o}
 * (save-temps) or a temp file, because the plugin deletes what it is given; {@code LIBRARY_PATH}
 * unset means no table. offlink does the same for a known {@code exec} link, and otherwise (PIE,
 * shared, relocatable or unknown) writes {@link OffloadTableObject} under the same name with GCC
 * 12, so PIE links get neither text relocations nor ld's warnings about them; with GCC 13+ it
 * copies that GCC's position-independent {@code crtoffloadtableS.o} instead (delta §4.1 L1).
 *
 * @param outputs where the table object goes
 * @param libraryPath {@code LIBRARY_PATH}, along which GCC's table objects are found
 * @param positionIndependent the link needs a position-independent table (see {@link
 *     OffloadPolicy#positionIndependentTable})
 * @param pieVariantShipped this GCC ships {@code crtoffloadtableS.o} (13+)
 */
record CrtOffloadTable(
    LinkOutputs outputs,
    Optional<String> libraryPath,
    boolean positionIndependent,
    boolean pieVariantShipped) {
  /**
   * Creates the object before it is known to be needed (while the accel compilers run, off the
   * link's critical path); a failure is kept for {@link Prepared#take}, where GCC would report it.
   */
  Prepared prepare() {
    try {
      return new Prepared(outputs.cwd(), create(), null);
    } catch (LtoWrapperException e) {
      return new Prepared(outputs.cwd(), Optional.empty(), e);
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
    if (libraryPath.isEmpty()) {
      return Optional.empty();
    }
    String variant = "";
    if (positionIndependent) {
      if (!pieVariantShipped) {
        String name = outputName();
        write(name, OffloadTableObject.bytes());
        return Optional.of(name);
      }
      // GCC 13+ ships a position-independent crtoffloadtableS.o (Debian's pr117851; 4 or 6
      // entries as that GCC's libgomp expects): copied like GCC copies it for PIE and shared links.
      variant = "S";
    }
    for (String entry : libraryPath.get().split(":", -1)) {
      Path src = outputs.resolve(entry + "/crtoffloadtable" + variant + ".o");
      if (Files.isReadable(src) && !Files.isDirectory(src)) {
        String name = outputName();
        try {
          NamedFiles.copy(outputs.temps().scope(), src, outputs.resolve(name));
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
    return outputs.name("crtoffloadtable.o", ".crtoffloadtable.o");
  }

  private void write(String name, byte[] bytes) {
    try {
      NamedFiles.write(outputs.temps().scope(), outputs.resolve(name), bytes);
    } catch (IOException e) {
      throw new LtoWrapperException("writing output file", e);
    }
  }
}
