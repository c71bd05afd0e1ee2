package org.offlink.cli.streamer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.offlink.runtime.FileKinds;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.ar.Archive;
import org.offlink.streamer.ar.ArchiveMember;
import org.offlink.streamer.ar.ArchiveReader;
import org.offlink.streamer.ar.MemberSpec;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;

/**
 * One ELF object named on the command line: a plain file, an archive member spelled as GCC's linker
 * plugin spells it ({@code lib.a@0x53c}), or a member found by expanding an archive.
 *
 * @param display how the object is named in output ({@code lib.a@0x53c} for members)
 * @param member the member's name inside its archive, empty for plain files
 */
record ObjectInput(String display, Path file, long offset, long length, String member) {

  /** Opens the object for reading. */
  ElfFile open() throws IOException {
    return length < 0 ? ElfReader.read(file) : ElfReader.read(file, offset, length);
  }

  /**
   * The objects named by one argument: an archive expands to its members in order, {@code
   * file@0xOFF} is one member, anything else is one object.
   */
  static List<ObjectInput> expand(String argument) throws IOException {
    Path plain = Path.of(argument);
    if (!Files.exists(plain) && argument.contains("@")) {
      MemberSpec spec = MemberSpec.parse(argument);
      Path file = Path.of(spec.file());
      Archive archive = ArchiveReader.read(requireExists(file));
      for (ArchiveMember m : archive.members()) {
        if (!m.isExternal() && m.dataOffset() == spec.offset()) {
          return List.of(new ObjectInput(argument, file, m.dataOffset(), m.size(), m.name()));
        }
      }
      throw new MalformedObjectException(
          file,
          spec.offset(),
          "expected an archive member's data to start here, found none (members: "
              + archive.members().size()
              + ")");
    }
    requireExists(plain);
    if (!ArchiveReader.isArchive(plain)) {
      return List.of(new ObjectInput(argument, plain, 0, -1, ""));
    }
    Archive archive = ArchiveReader.read(plain);
    List<ObjectInput> out = new ArrayList<>();
    for (ArchiveMember m : archive.members()) {
      MemberSpec spec = archive.specOf(m);
      if (m.isExternal()) {
        out.add(new ObjectInput(spec.toString(), Path.of(spec.file()), 0, -1, m.name()));
      } else {
        out.add(new ObjectInput(spec.toString(), plain, m.dataOffset(), m.size(), m.name()));
      }
    }
    return out;
  }

  private static Path requireExists(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw FileKinds.notRegular(file);
    }
    return file;
  }
}
