package org.offlink.ltowrapper;

import java.io.EOFException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;
import org.offlink.bridge.nvptx.PtxArchives;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.bridge.process.RunnerOptions;
import org.offlink.bridge.process.SystemProcessRunner;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.io.ObjectScan;
import org.offlink.ltowrapper.io.OptsSectionName;
import org.offlink.ltowrapper.jobs.JobserverClient;
import org.offlink.ltowrapper.offload.ImageBuilders;
import org.offlink.ltowrapper.offload.OwnMkoffloads;
import org.offlink.ltowrapper.run.LtoWrapperServices;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.LinkScope;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.ar.OffloadObjectListReader;
import org.offlink.streamer.edit.LtoDebugSectionCopier;
import org.offlink.streamer.elf.ElfClass;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.lto.HostOffloadTable;
import org.offlink.streamer.opts.OptsSection;

/**
 * The production collaborators of lto-wrapper: the bridge's process runner (quiet: lto-wrapper
 * prints its own {@code -v} lines), the image builders (this installation's mkoffload in-process),
 * section-streamer's ELF reader for the input scans, {@code .ofldlist} reader and early debug
 * copier; for a JVM that runs one link ({@link #forInstallation}) or a link server's ({@link
 * #forServer}).
 */
public final class LtoWrapperWiring {
  private LtoWrapperWiring() {}

  /**
   * The lto-wrapper of an installation: {@code launcher}, the real path of its {@code lto-wrapper}
   * launcher, finds its own mkoffloads (empty: every mkoffload runs as a program). Serves any
   * number of links, in {@code mode} (see {@link LtoWrapper}).
   */
  public static LtoWrapper forInstallation(Optional<Path> launcher, String mode) {
    return new LtoWrapper(services(JobserverClient::procFd), imageBuilders(launcher), mode);
  }

  /**
   * The lto-wrapper of a link server for the installation of {@code launcher}: its links are other
   * processes', so none of them has a descriptor here ({@link JobserverClient#notHere}: a client
   * never hands a link to the server while make's jobserver descriptors are open in it, and with
   * them closed GCC too finds no jobserver).
   */
  public static LtoWrapper forServer(Path launcher, String mode) {
    return new LtoWrapper(
        services(JobserverClient::notHere),
        OwnMkoffloads.beside(launcher, PtxArchives.resident()),
        mode);
  }

  static LtoWrapperServices services(IntFunction<Path> fdPath) {
    return new LtoWrapperServices(
        LtoWrapperWiring::runner,
        LtoWrapperWiring::scan,
        LtoWrapperWiring::readOffloadList,
        LtoWrapperWiring::copyEarlyDebug,
        () -> Runtime.getRuntime().availableProcessors(),
        fdPath);
  }

  /** A link's children, run quietly: lto-wrapper prints its own {@code -v} lines. */
  private static ProcessRunner runner(LinkContext context) {
    return new SystemProcessRunner(RunnerOptions.quiet(context));
  }

  /**
   * How each target's mkoffload runs: this installation's own launchers in this JVM (found beside
   * the lto-wrapper launcher), unless a link sets {@code OFFLINK_MKOFFLOAD_SUBPROCESS}; every other
   * mkoffload as a program.
   */
  static ImageBuilders imageBuilders(Optional<Path> launcher) {
    return launcher.isEmpty()
        ? ImageBuilders.subprocessOnly()
        : OwnMkoffloads.beside(launcher.get());
  }

  /**
   * One pass over an input's section headers: the NUL-terminated strings of its two {@code .opts}
   * sections, still quoted, and its host offload tables' sizes; {@link ObjectScan#NOT_AN_OBJECT}
   * when the input is not an ELF object (GCC's simple-object reader says "not found").
   */
  static ObjectScan scan(InputFile input) throws IOException {
    long length = Files.size(input.file()) - input.offset();
    try (ElfFile elf = ElfReader.read(input.file(), input.offset(), length)) {
      return new ObjectScan(
          opts(elf, OptsSectionName.HOST_LTO),
          opts(elf, OptsSectionName.OFFLOAD),
          Optional.of(
              new ObjectScan.TableSections(
                  sectionSize(elf, HostOffloadTable.FUNCS.sectionName()),
                  sectionSize(elf, HostOffloadTable.VARS.sectionName()),
                  elf.header().elfClass() == ElfClass.ELF64)),
          ranges(elf, ".gnu.offload_lto_"),
          ranges(elf, ".gnu.debuglto_"));
    } catch (MalformedObjectException notAnObject) {
      return ObjectScan.NOT_AN_OBJECT;
    }
  }

  private static List<ObjectScan.SectionRange> ranges(ElfFile elf, String prefix) {
    List<ObjectScan.SectionRange> ranges = new ArrayList<>();
    for (ElfSection section : elf.sectionsWithPrefix(prefix)) {
      long size = section.hasFileData() ? section.size() : 0;
      ranges.add(
          new ObjectScan.SectionRange(section.name(), elf.baseOffset() + section.offset(), size));
    }
    return ranges;
  }

  private static Optional<List<String>> opts(ElfFile elf, OptsSectionName section)
      throws IOException {
    Optional<ElfSection> s = elf.section(section.sectionName());
    if (s.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(OptsSection.split(elf.readSectionData(s.get())));
  }

  private static long sectionSize(ElfFile elf, String name) {
    return elf.section(name).map(ElfSection::size).orElse(0L);
  }

  /**
   * Writes the early debug object of an LTO input (GCC's {@code debug_objcopy}): false when the
   * input cannot be opened, is not an object or has no early debug info, as GCC says "no object".
   */
  static boolean copyEarlyDebug(LinkScope scope, InputFile input, Path output, boolean rename)
      throws IOException {
    long size;
    try {
      size = Files.size(input.file());
    } catch (NoSuchFileException | AccessDeniedException unreadable) {
      return false;
    }
    if (input.offset() > size) {
      return false;
    }
    return LtoDebugSectionCopier.copy(
        scope, input.file(), input.offset(), size - input.offset(), output, rename);
  }

  /** The offload list, with a short list reported as {@link EOFException} (GCC: invalid format). */
  static List<String> readOffloadList(Path file) throws IOException {
    try {
      return OffloadObjectListReader.read(file).entries();
    } catch (OffloadObjectListReader.TooFewNames e) {
      throw (EOFException) new EOFException(e.detail()).initCause(e);
    }
  }
}
