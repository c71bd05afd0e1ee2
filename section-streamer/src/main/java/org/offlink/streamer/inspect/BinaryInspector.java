package org.offlink.streamer.inspect;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.offlink.runtime.FileKinds;
import org.offlink.streamer.ar.Archive;
import org.offlink.streamer.ar.ArchiveMember;
import org.offlink.streamer.ar.ArchiveReader;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.elf.ElfType;

/**
 * Inspects an object, archive, executable or shared library for offload content: GCC's offload IR
 * sections and host tables in objects, the registered device images of linked programs (GCC 12
 * wrapper {@code target_data}), and LLVM's offload entries and OffloadBinaries. Archives are
 * inspected member by member.
 */
public final class BinaryInspector {
  private static final String LLVM_OFFLOADING = ".llvm.offloading";

  private BinaryInspector() {}

  /** Inspects {@code file}. */
  public static List<InspectedObject> inspect(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw FileKinds.notRegular(file);
    }
    if (!ArchiveReader.isArchive(file)) {
      try (ElfFile elf = ElfReader.read(file)) {
        return List.of(inspect(elf, file.toString(), ""));
      }
    }
    Archive archive = ArchiveReader.read(file);
    List<InspectedObject> out = new ArrayList<>();
    for (ArchiveMember m : archive.members()) {
      String display = archive.specOf(m).toString();
      ElfFile elf =
          m.isExternal()
              ? ElfReader.read(m.externalFile().get())
              : ElfReader.read(file, m.dataOffset(), m.size());
      try (elf) {
        out.add(inspect(elf, display, m.name()));
      }
    }
    return out;
  }

  /** Inspects one opened object. */
  public static InspectedObject inspect(ElfFile elf, String display, String member)
      throws IOException {
    boolean linked = ImageMemory.isLinkedImage(elf);
    Optional<ImageMemory> memory = linked ? Optional.of(ImageMemory.of(elf)) : Optional.empty();
    List<LlvmOffloadEntry> entries = new ArrayList<>();
    List<LlvmOffloadBinarySection> binaries = new ArrayList<>();
    for (ElfSection s : elf.sections()) {
      if (LlvmEntryReader.isEntrySection(s.name())) {
        entries.addAll(LlvmEntryReader.read(elf, s, memory));
      } else if (s.name().equals(LLVM_OFFLOADING) || s.name().startsWith(LLVM_OFFLOADING + ".")) {
        byte[] data = elf.readSectionData(s);
        OffloadBinaryReader reader =
            new OffloadBinaryReader(elf.path(), elf.baseOffset() + s.offset());
        binaries.add(new LlvmOffloadBinarySection(s.name(), reader.readAll(data), data));
      }
    }
    if (!linked) {
      return new InspectedObject(
          display,
          member,
          "object",
          IrSectionReader.read(elf),
          Optional.empty(),
          List.of(),
          entries,
          binaries);
    }
    SymbolIndex symbols = SymbolIndex.of(elf);
    InspectedHostTables tables = HostTableReader.read(elf, memory.get(), symbols);
    List<RegisteredImage> images = TargetDataReader.read(memory.get(), symbols);
    return new InspectedObject(
        display, member, kindOf(elf), List.of(), Optional.of(tables), images, entries, binaries);
  }

  private static String kindOf(ElfFile elf) throws IOException {
    if (elf.header().type() == ElfType.EXEC) {
      return "executable";
    }
    boolean hasInterp = elf.section(".interp").isPresent();
    return hasInterp ? "pie executable" : "shared library";
  }
}
