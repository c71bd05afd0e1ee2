package org.offlink.streamer.edit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.offlink.streamer.elf.ElfClass;
import org.offlink.streamer.elf.ElfData;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfHeader;
import org.offlink.streamer.elf.ElfReader;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.elf.ElfType;
import org.offlink.streamer.elf.SectionType;

/** An ELF64 little-endian relocatable object loaded into memory for editing. */
final class EditableObject {
  final Path path;
  final ElfHeader header;

  /**
   * The most section contents loaded for an edit: 256 MiB, so that an edit stays within the 512 MB
   * heap offlink's tools run in (the data is held once, and written out from there).
   */
  static final long MAX_LOADED_BYTES = 256L << 20;

  /** Sections in output order; index 0 is the NULL section. */
  final List<WorkSection> sections;

  /** The section-name string table, rebuilt on write; null when the object has none. */
  WorkSection shstrtab;

  private EditableObject(Path path, ElfHeader header, List<WorkSection> sections) {
    this.path = path;
    this.header = header;
    this.sections = sections;
  }

  static EditableObject load(Path path) throws IOException {
    try (ElfFile elf = ElfReader.read(path)) {
      ElfHeader h = elf.header();
      if (h.elfClass() != ElfClass.ELF64
          || h.data() != ElfData.LSB
          || h.type() != ElfType.REL
          || h.phnum() != 0) {
        throw new ObjectEditException(
            path,
            String.format(
                "unsupported object: expected an ELF64 little-endian relocatable (REL) without"
                    + " program headers, found %s %s %s with %d program headers",
                h.elfClass(), h.data(), h.type(), h.phnum()));
      }
      List<WorkSection> list = new ArrayList<>(h.shnum());
      long total = 0;
      for (ElfSection s : elf.sections()) {
        // Summed, not per section: headers may all point at one large region of the file.
        total += s.hasFileData() ? s.size() : 0;
        if (total > MAX_LOADED_BYTES) {
          throw new ObjectEditException(
              path,
              String.format(
                  "expected at most %d bytes of section contents to edit in memory (offlink's"
                      + " limit), found more by section [%d] %s",
                  MAX_LOADED_BYTES, s.index(), s.name()));
        }
        list.add(WorkSection.of(s, elf.readSectionData(s)));
      }
      if (list.isEmpty()) {
        list.add(new WorkSection("", 0, 0, 0, 0, new byte[0]));
      }
      EditableObject o = new EditableObject(path, h, list);
      o.shstrtab = h.shstrndx() == 0 ? null : list.get(h.shstrndx());
      return o;
    }
  }

  void removeSections(Predicate<String> names) throws ObjectEditException {
    new SectionRemover(this).remove(names);
  }

  void renameSections(String from, String to) {
    for (int i = 1; i < sections.size(); i++) {
      WorkSection s = sections.get(i);
      if (s.name.startsWith(from)) {
        s.name = to + s.name.substring(from.length());
      }
    }
  }

  void replaceSectionData(String name, byte[] data) throws ObjectEditException {
    int index = indexOf(name);
    if (index < 0) {
      throw new ObjectEditException(
          path, "expected a section named " + name + " to replace, found none");
    }
    WorkSection s = sections.get(index);
    if (s.isNobits() || s == shstrtab || s.is(SectionType.NULL)) {
      throw new ObjectEditException(
          path,
          "expected a section with file contents to replace, found " + name + " of type " + s.type);
    }
    for (WorkSection r : sections) {
      if (r.isReloc() && r.info == index) {
        throw new ObjectEditException(
            path, "expected section " + name + " without relocations to replace, found " + r.name);
      }
    }
    s.data = data.clone();
  }

  void addSection(WorkSection s) throws ObjectEditException {
    if (indexOf(s.name) >= 0) {
      throw new ObjectEditException(
          path, "expected no section named " + s.name + " before adding it, found one");
    }
    sections.add(s);
  }

  int indexOf(String name) {
    for (int i = 1; i < sections.size(); i++) {
      if (sections.get(i).name.equals(name)) {
        return i;
      }
    }
    return -1;
  }
}
