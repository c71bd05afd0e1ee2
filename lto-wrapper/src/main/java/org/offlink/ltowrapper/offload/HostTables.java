package org.offlink.ltowrapper.offload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.io.ObjectScan;
import org.offlink.ltowrapper.io.ScannedInputs;
import org.offlink.streamer.MalformedObjectException;
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
   * The tables of {@code names} from their scans; empty when they cannot be known here: an input
   * that is not a readable ELF object, or one with host LTO IR (its tables only exist after
   * LTRANS).
   *
   * @throws MalformedObjectException for a table section that does not hold whole entries
   */
  public static Optional<HostTables> of(List<String> names, ScannedInputs scans, Path cwd)
      throws MalformedObjectException {
    List<ObjectTables> objects = new ArrayList<>();
    for (String name : names) {
      InputFile in = InputFile.parse(name, cwd);
      if (!Files.isRegularFile(in.file())) {
        return Optional.empty();
      }
      ObjectScan scan = scans.of(in);
      if (scan.hostOpts().isPresent() || scan.tables().isEmpty()) {
        return Optional.empty();
      }
      ObjectScan.TableSections t = scan.tables().get();
      objects.add(
          new ObjectTables(
              name,
              HostOffloadTable.FUNCS.entryCount(in.file(), t.funcsBytes(), t.elf64()),
              HostOffloadTable.VARS.entryCount(in.file(), t.varsBytes(), t.elf64())));
    }
    return Optional.of(new HostTables(objects));
  }
}
