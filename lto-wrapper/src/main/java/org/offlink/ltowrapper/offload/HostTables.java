package org.offlink.ltowrapper.offload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.elf.ElfClass;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.lto.HostOffloadTable;

/**
 * The host offload tables of the offload input objects, in offload-list order: the number of {@code
 * .gnu.offload_funcs} and {@code .gnu.offload_vars} entries of each. The linker concatenates these
 * sections between {@code crtoffloadbegin.o} and {@code crtoffloadend.o}, and libgomp pairs them by
 * position with each device image's tables.
 *
 * @param objects one entry per object, in list order
 */
public record HostTables(List<ObjectTables> objects) {
  /** Copies the list. */
  public HostTables {
    objects = List.copyOf(objects);
  }

  /**
   * One object's table sizes.
   *
   * @param name the object as listed ({@code lib.a@0xOFF} for an archive member)
   * @param functions {@code .gnu.offload_funcs} entries
   * @param variables {@code .gnu.offload_vars} entries
   */
  public record ObjectTables(String name, long functions, long variables) {}

  /** Functions over all objects. */
  public long functions() {
    return objects.stream().mapToLong(ObjectTables::functions).sum();
  }

  /** Variables over all objects. */
  public long variables() {
    return objects.stream().mapToLong(ObjectTables::variables).sum();
  }

  /**
   * Reads the tables of {@code names}; empty when they cannot be known here: an input that is not a
   * readable ELF object, or one with host LTO IR (its tables only exist after LTRANS).
   *
   * @throws MalformedObjectException for a table section that does not hold whole entries
   */
  public static Optional<HostTables> read(List<String> names, Path cwd) throws IOException {
    List<ObjectTables> objects = new ArrayList<>();
    for (String name : names) {
      InputFile in = InputFile.parse(name, cwd);
      if (!Files.isRegularFile(in.file())) {
        return Optional.empty();
      }
      long length = Files.size(in.file()) - in.offset();
      long funcsSize;
      long varsSize;
      boolean elf64;
      try (ElfFile elf = ElfReader.read(in.file(), in.offset(), length)) {
        if (elf.section(".gnu.lto_.opts").isPresent()) {
          return Optional.empty();
        }
        funcsSize = size(elf, HostOffloadTable.FUNCS);
        varsSize = size(elf, HostOffloadTable.VARS);
        elf64 = elf.header().elfClass() == ElfClass.ELF64;
      } catch (MalformedObjectException notAnObject) {
        return Optional.empty();
      }
      objects.add(
          new ObjectTables(
              name,
              HostOffloadTable.FUNCS.entryCount(in.file(), funcsSize, elf64),
              HostOffloadTable.VARS.entryCount(in.file(), varsSize, elf64)));
    }
    return Optional.of(new HostTables(objects));
  }

  private static long size(ElfFile elf, HostOffloadTable table) {
    return elf.section(table.sectionName()).map(ElfSection::size).orElse(0L);
  }
}
