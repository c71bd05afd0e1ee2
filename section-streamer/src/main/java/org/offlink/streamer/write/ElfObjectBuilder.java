package org.offlink.streamer.write;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.offlink.streamer.elf.FieldRanges;
import org.offlink.streamer.elf.SectionType;
import org.offlink.streamer.elf.SymbolBinding;
import org.offlink.streamer.elf.SymbolType;
import org.offlink.streamer.elf.SymbolVisibility;

/**
 * Builds a relocatable ELF64 x86-64 little-endian object: sections, symbols and RELA relocations
 * are declared here; {@link #toBytes()} lays them out (contents, then {@code .rela*}, {@code
 * .symtab}, {@code .strtab}, {@code .shstrtab}, then the section header table) and always includes
 * an empty, non-executable {@code .note.GNU-stack}. Locals are written before globals and {@code
 * .symtab}'s {@code sh_info} is the first non-local index. The same declarations always give the
 * same bytes.
 */
public final class ElfObjectBuilder {
  /** Name of the stack note the writer adds when the caller did not. */
  public static final String GNU_STACK = ".note.GNU-stack";

  private final List<SectionDef> sections = new ArrayList<>();
  private final List<SymbolDef> symbols = new ArrayList<>();
  private final List<RelaDef> relocations = new ArrayList<>();
  private final Map<Integer, SymbolHandle> sectionSymbols = new HashMap<>();

  /** An entry of one builder, by its position: what both kinds of handle are. */
  abstract static class Handle {
    final ElfObjectBuilder owner;
    final int ordinal;

    Handle(ElfObjectBuilder owner, int ordinal) {
      this.owner = owner;
      this.ordinal = ordinal;
    }

    int ordinal() {
      return ordinal;
    }
  }

  /** A section of this builder; pass it to {@link #symbol} and {@link #rela}. */
  public static final class SectionHandle extends Handle {
    private SectionHandle(ElfObjectBuilder owner, int ordinal) {
      super(owner, ordinal);
    }

    @Override
    public String toString() {
      return "section " + owner.sections.get(ordinal).name();
    }
  }

  /** A symbol of this builder; pass it to {@link #rela}. */
  public static final class SymbolHandle extends Handle {
    private SymbolHandle(ElfObjectBuilder owner, int ordinal) {
      super(owner, ordinal);
    }

    @Override
    public String toString() {
      return "symbol " + owner.symbols.get(ordinal).name();
    }
  }

  /**
   * A declared section; its file bytes are the first {@link #fileLength()} bytes of {@code
   * contents} (an adopted buffer may be longer), or zeros when {@code contents} is null (a reserved
   * section).
   */
  record SectionDef(
      String name,
      SectionType type,
      long flags,
      long alignment,
      long entrySize,
      byte[] contents,
      long size) {
    int fileLength() {
      return type == SectionType.NOBITS ? 0 : (int) size;
    }
  }

  record SymbolDef(
      String name,
      SymbolBinding binding,
      SymbolType type,
      SymbolVisibility visibility,
      int sectionOrdinal,
      long value,
      long size) {
    static final int UNDEFINED = -1;
    static final int ABSOLUTE = -2;
  }

  record RelaDef(int sectionOrdinal, long offset, long type, int symbolOrdinal, long addend) {}

  /**
   * Adds a section with file contents (any type but NOBITS; the writer's own SYMTAB, STRTAB and
   * RELA types are rejected).
   *
   * @param alignment {@code sh_addralign}: 0 or a power of two
   * @param entrySize {@code sh_entsize} (e.g. 8 for INIT_ARRAY, 1 for merged strings)
   */
  public SectionHandle section(
      String name,
      SectionType type,
      Set<SectionFlag> flags,
      long alignment,
      long entrySize,
      byte[] contents) {
    Objects.requireNonNull(contents, "contents");
    if (type == SectionType.NOBITS) {
      throw new IllegalArgumentException("use nobits(...) for " + name);
    }
    return add(name, type, flags, alignment, entrySize, contents.clone(), contents.length);
  }

  /**
   * Adds a section whose contents are the first {@code length} bytes of {@code buffer}, taking the
   * array over instead of copying it: for contents as large as a device image, built for this
   * object alone. The caller must not change {@code buffer} afterwards. {@code sh_entsize} is 0;
   * otherwise as {@link #section(String, SectionType, Set, long, long, byte[])}.
   */
  public SectionHandle adoptSection(
      String name,
      SectionType type,
      Set<SectionFlag> flags,
      long alignment,
      byte[] buffer,
      int length) {
    Objects.requireNonNull(buffer, "buffer");
    if (type == SectionType.NOBITS) {
      throw new IllegalArgumentException("use nobits(...) for " + name);
    }
    if (length < 0 || length > buffer.length) {
      throw new IllegalArgumentException(
          "length " + length + " of " + name + " outside its buffer of " + buffer.length);
    }
    return add(name, type, flags, alignment, 0, buffer, length);
  }

  /**
   * Adds a section of {@code size} bytes whose file bytes are left zero: for a caller that needs
   * the object's layout and every byte around the section, not the section's own bytes (checking
   * that an object is what this builder makes of given contents, without copying a device image
   * twice). {@code sh_entsize} is 0; otherwise as {@link #adoptSection}.
   */
  public SectionHandle reservedSection(
      String name, SectionType type, Set<SectionFlag> flags, long alignment, int size) {
    if (type == SectionType.NOBITS || size < 0) {
      throw new IllegalArgumentException("a reserved section has file bytes: " + name);
    }
    return add(name, type, flags, alignment, 0, null, size);
  }

  /** Adds a section with contents and {@code sh_entsize} 0. */
  public SectionHandle section(
      String name, SectionType type, Set<SectionFlag> flags, long alignment, byte[] contents) {
    return section(name, type, flags, alignment, 0, contents);
  }

  /** Adds a NOBITS section of {@code size} bytes ({@code .bss}). */
  public SectionHandle nobits(String name, Set<SectionFlag> flags, long alignment, long size) {
    if (size < 0) {
      throw new IllegalArgumentException("negative size for " + name);
    }
    return add(name, SectionType.NOBITS, flags, alignment, 0, new byte[0], size);
  }

  private SectionHandle add(
      String name,
      SectionType type,
      Set<SectionFlag> flags,
      long alignment,
      long entrySize,
      byte[] contents,
      long size) {
    checkName(name);
    Objects.requireNonNull(type, "type");
    FieldRanges.checkPowerOfTwoOrZero("sh_addralign", alignment);
    FieldRanges.checkU64("sh_entsize", entrySize);
    if (name.isEmpty()) {
      throw new IllegalArgumentException("section name is empty");
    }
    if (type == SectionType.UNKNOWN || type == SectionType.NULL) {
      throw new IllegalArgumentException("section " + name + " needs a known, non-null type");
    }
    if (type == SectionType.SYMTAB || type == SectionType.STRTAB || type == SectionType.RELA) {
      throw new IllegalArgumentException(type + " sections are generated by the writer: " + name);
    }
    FieldRanges.checkPowerOfTwoOrZero("alignment of " + name, alignment);
    FieldRanges.checkU64("entry size of " + name, entrySize);
    if (hasSection(name)) {
      throw new IllegalArgumentException("duplicate section " + name);
    }
    sections.add(
        new SectionDef(name, type, SectionFlag.mask(flags), alignment, entrySize, contents, size));
    return new SectionHandle(this, sections.size() - 1);
  }

  /**
   * Adds a symbol defined in {@code section} at {@code value}.
   *
   * @param section the defining section; {@code null} makes an undefined symbol (value and size
   *     must then be 0)
   */
  public SymbolHandle symbol(
      String name,
      SymbolBinding binding,
      SymbolType type,
      SymbolVisibility visibility,
      SectionHandle section,
      long value,
      long size) {
    checkName(name);
    Objects.requireNonNull(binding, "binding");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(visibility, "visibility");
    if (type == SymbolType.SECTION || type == SymbolType.FILE) {
      throw new IllegalArgumentException("use sectionSymbol/fileSymbol for " + type);
    }
    int ordinal = SymbolDef.UNDEFINED;
    if (section != null) {
      ordinal = own(section, "section").ordinal();
      SectionDef s = sections.get(ordinal);
      if (value < 0 || size < 0 || value + size > s.size()) {
        throw new IllegalArgumentException(
            String.format(
                "symbol %s [0x%x, +0x%x) lies outside %s (size 0x%x)",
                name, value, size, s.name(), s.size()));
      }
    } else if (binding == SymbolBinding.LOCAL || value != 0 || size != 0) {
      throw new IllegalArgumentException("undefined symbol " + name + " must be global or weak");
    }
    return addSymbol(new SymbolDef(name, binding, type, visibility, ordinal, value, size));
  }

  /** Adds an undefined global reference to {@code name} with {@code visibility}. */
  public SymbolHandle undefined(String name, SymbolVisibility visibility) {
    return symbol(name, SymbolBinding.GLOBAL, SymbolType.NOTYPE, visibility, null, 0, 0);
  }

  /** The {@code STT_SECTION} symbol of {@code section}, created on first use. */
  public SymbolHandle sectionSymbol(SectionHandle section) {
    int ordinal = own(section, "section").ordinal();
    return sectionSymbols.computeIfAbsent(
        ordinal,
        o ->
            addSymbol(
                new SymbolDef(
                    "",
                    SymbolBinding.LOCAL,
                    SymbolType.SECTION,
                    SymbolVisibility.DEFAULT,
                    o,
                    0,
                    0)));
  }

  /** Adds the {@code STT_FILE} symbol naming the source file (written first, as {@code as}). */
  public SymbolHandle fileSymbol(String sourceName) {
    checkName(sourceName);
    return addSymbol(
        new SymbolDef(
            sourceName,
            SymbolBinding.LOCAL,
            SymbolType.FILE,
            SymbolVisibility.DEFAULT,
            SymbolDef.ABSOLUTE,
            0,
            0));
  }

  /**
   * Adds a RELA relocation patching {@code section} at {@code offset}.
   *
   * @param type the relocation type by number (see {@link X86_64Relocation})
   */
  public void rela(SectionHandle section, long offset, int type, SymbolHandle symbol, long addend) {
    SectionDef s = sections.get(own(section, "section").ordinal());
    own(symbol, "symbol");
    if (s.type() == SectionType.NOBITS) {
      throw new IllegalArgumentException("cannot relocate NOBITS section " + s.name());
    }
    if (type < 0) {
      throw new IllegalArgumentException("negative relocation type " + type);
    }
    long width = fieldWidth(type);
    if (offset < 0 || offset + width > s.size()) {
      throw new IllegalArgumentException(
          String.format(
              "relocation at 0x%x (%d bytes) lies outside %s (size 0x%x)",
              offset, width, s.name(), s.size()));
    }
    relocations.add(new RelaDef(section.ordinal(), offset, type, symbol.ordinal(), addend));
  }

  /** Adds a relocation of a named type. */
  public void rela(
      SectionHandle section, long offset, X86_64Relocation type, SymbolHandle symbol, long addend) {
    rela(section, offset, type.code(), symbol, addend);
  }

  private static long fieldWidth(int type) {
    return switch (type) {
      case 0 -> 0; // R_X86_64_NONE patches nothing
      case 14, 15 -> 1; // R_X86_64_8, PC8
      case 12, 13 -> 2; // R_X86_64_16, PC16
      case 1, 16, 17, 18, 24, 25, 27, 28, 29, 30, 33 -> 8; // 64, DTPMOD64 .. SIZE64
      default -> 4;
    };
  }

  /** Lays the object out and returns its bytes. */
  public byte[] toBytes() {
    List<SectionDef> all = new ArrayList<>(sections);
    if (!hasSection(GNU_STACK)) {
      all.add(new SectionDef(GNU_STACK, SectionType.PROGBITS, 0, 1, 0, new byte[0], 0));
    }
    return new ElfObjectWriter(
            Collections.unmodifiableList(all),
            Collections.unmodifiableList(symbols),
            Collections.unmodifiableList(relocations))
        .write();
  }

  // Loops rather than streams here and in the writer: wrapper objects are written on the link's
  // critical path, where this code runs cold in the interpreter.
  private boolean hasSection(String name) {
    for (SectionDef s : sections) {
      if (s.name().equals(name)) {
        return true;
      }
    }
    return false;
  }

  private SymbolHandle addSymbol(SymbolDef def) {
    symbols.add(def);
    return new SymbolHandle(this, symbols.size() - 1);
  }

  /** {@code h}, checked to be this builder's ({@code what}: its kind, for a null message). */
  private <H extends Handle> H own(H h, String what) {
    if (Objects.requireNonNull(h, what).owner != this) {
      throw new IllegalArgumentException(h + " belongs to another builder");
    }
    return h;
  }

  private static void checkName(String name) {
    if (Objects.requireNonNull(name, "name").indexOf('\0') >= 0) {
      throw new IllegalArgumentException("name contains NUL: " + name.replace('\0', '?'));
    }
  }
}
