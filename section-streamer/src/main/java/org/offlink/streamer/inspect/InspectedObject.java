package org.offlink.streamer.inspect;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link BinaryInspector} found in one ELF object (a file or an archive member).
 *
 * @param display how the object is named ({@code lib.a@0x53c} for archive members)
 * @param member the archive member name, empty for plain files
 * @param kind {@code object}, {@code executable}, {@code pie executable}, {@code shared library}
 * @param irSections GCC offload IR sections and host tables (objects)
 * @param hostTables the linked host tables (linked images only)
 * @param images the registered GCC device images (linked images only)
 * @param llvmEntries LLVM host offload entries
 * @param llvmBinaries LLVM {@code .llvm.offloading} sections
 */
public record InspectedObject(
    String display,
    String member,
    String kind,
    List<IrSection> irSections,
    Optional<InspectedHostTables> hostTables,
    List<RegisteredImage> images,
    List<LlvmOffloadEntry> llvmEntries,
    List<LlvmOffloadBinarySection> llvmBinaries) {
  /** Copies the lists. */
  public InspectedObject {
    Objects.requireNonNull(display, "display");
    Objects.requireNonNull(member, "member");
    Objects.requireNonNull(kind, "kind");
    irSections = List.copyOf(irSections);
    Objects.requireNonNull(hostTables, "hostTables");
    images = List.copyOf(images);
    llvmEntries = List.copyOf(llvmEntries);
    llvmBinaries = List.copyOf(llvmBinaries);
  }
}
