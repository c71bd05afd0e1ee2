package org.offlink.streamer.edit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.offlink.runtime.LinkScope;
import org.offlink.streamer.elf.SectionType;

/**
 * A list of edits applied to an ELF64 little-endian relocatable object (x86-64 host objects): strip
 * sections (e.g. all offload IR to make a host-only object), rename a section-name prefix (the
 * legacy {@code .gnu.target_lto_} to {@code .gnu.offload_lto_}), replace a section's contents (e.g.
 * {@code .gnu.offload_lto_.opts}) and add sections (e.g. IR taken from another object).
 *
 * <p>Edits run in a fixed order whatever the order they were declared in: removals (matching the
 * input names), renames, replacements, then additions (appended after the existing sections, so no
 * existing index moves). Everything not edited keeps its bytes; symbol and relocation tables are
 * only rewritten where removal shifts indices. The output is written atomically and is a function
 * of the input and the edits only. Other object kinds fail with an {@link ObjectEditException}
 * saying what is unsupported.
 *
 * <pre>{@code
 * ObjectEditor.builder()
 *     .removeSections(n -> n.startsWith(".gnu.offload_lto_"))
 *     .build()
 *     .apply(scope, in, out);
 * }</pre>
 */
public final class ObjectEditor {
  /** GCC 12's prefix for offload IR sections. */
  public static final String OFFLOAD_LTO_PREFIX = ".gnu.offload_lto_";

  /** The prefix GCC used for offload IR before it was renamed. */
  public static final String LEGACY_TARGET_LTO_PREFIX = ".gnu.target_lto_";

  /** True for every section name that carries offload IR or host offload tables. */
  public static final Predicate<String> OFFLOAD_SECTIONS =
      n ->
          n.startsWith(OFFLOAD_LTO_PREFIX)
              || n.startsWith(LEGACY_TARGET_LTO_PREFIX)
              || n.equals(".gnu.offload_funcs")
              || n.equals(".gnu.offload_vars")
              || n.equals(".gnu.offload_ind_funcs");

  private record Rename(String from, String to) {}

  private record Replace(String name, byte[] data) {}

  private record Add(String name, SectionType type, long flags, long align, byte[] data) {}

  private final List<Predicate<String>> removals;
  private final List<Rename> renames;
  private final List<Replace> replacements;
  private final List<Add> additions;

  private ObjectEditor(Builder b) {
    this.removals = List.copyOf(b.removals);
    this.renames = List.copyOf(b.renames);
    this.replacements = List.copyOf(b.replacements);
    this.additions = List.copyOf(b.additions);
  }

  /** Starts an empty list of edits. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Reads {@code in}, applies the edits and writes {@code out} atomically ({@code in} may equal
   * it), for the link (the command run) of {@code scope}.
   */
  public void apply(LinkScope scope, Path in, Path out) throws IOException {
    EditableObject obj = EditableObject.load(in);
    if (!removals.isEmpty()) {
      obj.removeSections(n -> removals.stream().anyMatch(p -> p.test(n)));
    }
    for (Rename r : renames) {
      obj.renameSections(r.from(), r.to());
    }
    for (Replace r : replacements) {
      obj.replaceSectionData(r.name(), r.data());
    }
    for (Add a : additions) {
      WorkSection s =
          new WorkSection(a.name(), a.type().raw(), a.flags(), a.align(), 0, a.data().clone());
      s.nobitsSize = a.type() == SectionType.NOBITS ? a.data().length : 0;
      obj.addSection(s);
    }
    RelocatableWriter.write(scope, obj, out);
  }

  /** Collects edits; every method returns this builder. */
  public static final class Builder {
    private final List<Predicate<String>> removals = new ArrayList<>();
    private final List<Rename> renames = new ArrayList<>();
    private final List<Replace> replacements = new ArrayList<>();
    private final List<Add> additions = new ArrayList<>();

    private Builder() {}

    /** Removes every section whose name matches, and what depends on it. */
    public Builder removeSections(Predicate<String> names) {
      removals.add(Objects.requireNonNull(names));
      return this;
    }

    /** Renames every section whose name starts with {@code from} to start with {@code to}. */
    public Builder renameSections(String from, String to) {
      if (from.isEmpty()) {
        throw new IllegalArgumentException("empty prefix to rename");
      }
      renames.add(new Rename(from, Objects.requireNonNull(to)));
      return this;
    }

    /** Replaces the contents of the section called {@code name} (after renames). */
    public Builder replaceSectionData(String name, byte[] data) {
      replacements.add(new Replace(Objects.requireNonNull(name), data.clone()));
      return this;
    }

    /** Appends a section; {@code data.length} is the size of a NOBITS section. */
    public Builder addSection(String name, SectionType type, long flags, long align, byte[] data) {
      if (name.isEmpty() || type == SectionType.UNKNOWN || type == SectionType.NULL) {
        throw new IllegalArgumentException("bad section to add: '" + name + "' of type " + type);
      }
      if (align < 0 || Long.bitCount(Math.max(align, 1)) != 1) {
        throw new IllegalArgumentException("alignment must be 0 or a power of two: " + align);
      }
      additions.add(new Add(name, type, flags, align, data.clone()));
      return this;
    }

    /** The immutable editor. */
    public ObjectEditor build() {
      return new ObjectEditor(this);
    }
  }
}
