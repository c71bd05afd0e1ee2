package org.offlink.streamer.edit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.offlink.runtime.AtomicFiles;
import org.offlink.runtime.LinkScope;
import org.offlink.runtime.NativeCharset;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.elf.ElfClass;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfHeader;
import org.offlink.streamer.elf.ElfReader;
import org.offlink.streamer.elf.SectionHeader;
import org.offlink.streamer.elf.SectionType;
import org.offlink.streamer.write.ElfHeaders;

/**
 * Copies the early debug sections of an LTO object into a new relocatable object, byte for byte as
 * libiberty's {@code simple_object_copy_lto_debug_sections} does for GCC 12's lto-wrapper (the
 * {@code *.debug.temp.o} files) and gcn mkoffload.
 *
 * <p>What is kept: {@code .gnu.debuglto_*} and {@code .gnu.lto_.debug_*} sections and their {@code
 * .rel}/{@code .rela} sections, renamed to the plain DWARF names when {@code rename} is set; {@code
 * .note.GNU-stack}, {@code .note.gnu.property}, {@code .comment}, {@code .GCC.command.line}, {@code
 * .ctf} and {@code .BTF} under their own names; then, until nothing changes, the groups holding a
 * kept section with their signature symbol table, the symbol table and relocation sections of kept
 * relocation targets, and the string table of a kept symbol table. Everything else is dropped and
 * the kept sections renumbered: symbols in dropped sections, COMMON symbols and global undefined
 * symbols become unnamed locals in the first kept section or hidden weak undefined symbols named as
 * the first surviving hidden weak symbol; {@code sh_link}/{@code sh_info}, group members and {@code
 * st_shndx} are remapped; {@code SHF_EXCLUDE} is cleared, and {@code SHF_EXECINSTR} on {@code
 * .note.GNU-stack}.
 *
 * <p>The output layout is simple-object's:
 *
 * <pre>
 * ELF header            e_shoff = e_ehsize, e_phentsize set, e_phnum 0, ET_REL
 * section headers       [0] null, the kept sections in input order, then .shstrtab
 * section contents      in header order, each padded to its sh_addralign
 * .shstrtab             "\0", each kept name NUL-terminated (no sharing), ".shstrtab\0"
 * </pre>
 */
public final class LtoDebugSectionCopier {
  /** The section whose presence decides whether an object has early debug info. */
  public static final String EARLY_DEBUG_INFO = ".gnu.debuglto_.debug_info";

  private static final List<String> KEPT_AS_IS =
      List.of(
          ".note.GNU-stack", ".note.gnu.property", ".comment", ".GCC.command.line", ".ctf", ".BTF");

  private LtoDebugSectionCopier() {}

  /**
   * Writes to {@code output} the early debug object of the ELF object stored at {@code [offset,
   * offset + length)} of {@code input} (an archive member, or the whole file with offset 0).
   *
   * @param rename strip the {@code .gnu.debuglto_} prefix (false for {@code -flinker-output=rel})
   * @return false, writing nothing, when the input cannot be opened, is not an ELF object or has no
   *     {@value #EARLY_DEBUG_INFO} (lto-wrapper then has no early debug object for it)
   * @throws IOException if the object is inconsistent or the output cannot be written
   */
  public static boolean copy(
      LinkScope scope, Path input, long offset, long length, Path output, boolean rename)
      throws IOException {
    Optional<byte[]> bytes = copyToBytes(input, offset, length, rename);
    if (bytes.isEmpty()) {
      return false;
    }
    boolean created = !Files.exists(output);
    AtomicFiles.write(scope, output, bytes.get());
    if (created) {
      makeExecutable(output);
    }
    return true;
  }

  /**
   * libiberty creates the file with mode 0777 (an object, like a linker output), so a new copy is
   * executable where the umask lets it be readable; an existing file keeps its mode.
   */
  private static void makeExecutable(Path file) throws IOException {
    // The mode as a number: the JDK's permission sets are EnumSets (reflection on first use).
    int mode;
    try {
      mode = (Integer) Files.getAttribute(file, "unix:mode") & 07777;
    } catch (UnsupportedOperationException | IllegalArgumentException notUnix) {
      return;
    }
    int readable = mode & 0444; // r-- for owner, group and others
    Files.setAttribute(file, "unix:mode", mode | readable >> 2);
  }

  /** As {@link #copy}, returning the object's bytes instead of writing a file. */
  public static Optional<byte[]> copyToBytes(Path input, long offset, long length, boolean rename)
      throws IOException {
    ElfFile elf;
    try {
      elf = ElfReader.read(input, offset, length);
    } catch (NoSuchFileException | AccessDeniedException | MalformedObjectException notAnObject) {
      return Optional.empty();
    }
    try (elf) {
      if (elf.section(EARLY_DEBUG_INFO).isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(copy(elf, rename));
    }
  }

  /** The copy of an opened object that has early debug info. */
  public static byte[] copy(ElfFile elf, boolean rename) throws IOException {
    return new LtoDebugSelection(elf, rename).copy().write(elf.header());
  }

  /**
   * The name a section keeps in the copy, or null when it is not copied for its own sake (it may
   * still be kept as a dependency of a kept section, under its own name).
   */
  static String keptName(String name, boolean rename) {
    String prefix = "";
    String rest = name;
    if (rest.startsWith(".rela")) {
      prefix = ".rela";
    } else if (rest.startsWith(".rel")) {
      prefix = ".rel";
    }
    rest = rest.substring(prefix.length());
    if (rest.startsWith(".gnu.debuglto_")) {
      return rename ? prefix + rest.substring(".gnu.debuglto_".length()) : name;
    }
    if (rest.startsWith(".gnu.lto_.debug_")) {
      return rename ? prefix + rest.substring(".gnu.lto_".length()) : name;
    }
    // libiberty copies these under the name left after a .rel/.rela prefix, in both modes.
    return KEPT_AS_IS.contains(rest) ? rest : null;
  }

  /** One section of the copy: its final header fields and contents. */
  record OutSection(
      String name,
      int type,
      long flags,
      long addr,
      int link,
      int info,
      long addralign,
      long entsize,
      byte[] data) {}

  /** The kept sections, ready to be laid out. */
  record Result(ElfClass elfClass, ByteOrder order, List<OutSection> sections) {

    /** Lays the object out as simple-object's ELF writer does. */
    byte[] write(ElfHeader in) {
      int ehsize = elfClass.headerSize();
      int shentsize = elfClass.sectionHeaderSize();
      int shnum = sections.size() + 2;
      long[] offsets = new long[sections.size()];
      long pos = ehsize + (long) shnum * shentsize;
      for (int i = 0; i < offsets.length; i++) {
        long mask = sections.get(i).addralign() - 1;
        long aligned = (pos + mask) & ~mask;
        if (Long.compareUnsigned(aligned, pos) > 0) {
          pos = aligned;
        }
        offsets[i] = pos;
        pos += sections.get(i).data().length;
      }
      long shstrtabOffset = pos;
      ByteArrayBuilder names = new ByteArrayBuilder();
      names.add((byte) 0);
      int[] nameIndex = new int[sections.size()];
      for (int i = 0; i < nameIndex.length; i++) {
        nameIndex[i] = names.size();
        names.addString(sections.get(i).name());
      }
      int shstrtabName = names.size();
      names.addString(".shstrtab");
      ByteBuffer out =
          ByteBuffer.allocate(Math.toIntExact(shstrtabOffset + names.size())).order(order);
      ElfHeaders.write(out, header(in, shnum));
      out.position(ehsize + shentsize);
      for (int i = 0; i < offsets.length; i++) {
        OutSection s = sections.get(i);
        writeSectionHeader(out, nameIndex[i], s, offsets[i], s.data().length);
        out.put(Math.toIntExact(offsets[i]), s.data());
      }
      writeSectionHeader(
          out,
          shstrtabName,
          new OutSection("", SectionType.STRTAB.raw(), 0, 0, 0, 0, 1, 0, null),
          shstrtabOffset,
          names.size());
      out.put(Math.toIntExact(shstrtabOffset), names.toArray());
      return out.array();
    }

    /**
     * simple-object's header: the input's class, byte order, OS ABI, machine and flags; the section
     * headers right after it; the section-name table last.
     */
    private ElfHeader header(ElfHeader in, int shnum) {
      return new ElfHeader(
          elfClass,
          in.data(),
          in.osAbi(),
          0,
          1, // ET_REL
          in.machine(),
          1,
          0,
          0,
          elfClass.headerSize(), // e_shoff: the headers follow the ELF header
          in.flags(),
          elfClass.headerSize(),
          elfClass == ElfClass.ELF64 ? 56 : 32, // e_phentsize
          0,
          elfClass.sectionHeaderSize(),
          shnum,
          shnum - 1);
    }

    // simple-object passes sh_flags, sh_offset and sh_size as unsigned int.
    private void writeSectionHeader(
        ByteBuffer out, int name, OutSection s, long offset, long size) {
      ElfHeaders.writeSection(
          out,
          elfClass,
          new SectionHeader(
              name,
              Integer.toUnsignedLong(s.type()),
              s.flags() & 0xffffffffL,
              s.addr(),
              offset & 0xffffffffL,
              size & 0xffffffffL,
              Integer.toUnsignedLong(s.link()),
              Integer.toUnsignedLong(s.info()),
              s.addralign(),
              s.entsize()));
    }
  }

  /** A growable byte array for the section-name table. */
  private static final class ByteArrayBuilder {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    void add(byte b) {
      bytes.write(b);
    }

    void addString(String s) {
      bytes.writeBytes(s.getBytes(NativeCharset.CHARSET));
      bytes.write(0);
    }

    int size() {
      return bytes.size();
    }

    byte[] toArray() {
      return bytes.toByteArray();
    }
  }
}
