package org.offlink.bridge.gcc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;

/**
 * The libgomp a host link resolves ({@code -lgomp} along the link's {@code -L} folders and {@code
 * LIBRARY_PATH}) and the GCC generation it comes from, told by the newest {@code GOMP_*} symbol
 * version node it defines (the nodes each GCC release adds; read from the roots of
 * docs/gcc-versions.md with {@code objdump -T}).
 *
 * @param library the shared object, links resolved
 * @param generation what that libgomp accepts
 */
public record LibgompRuntime(Path library, Generation generation) {

  /**
   * A libgomp generation.
   *
   * @param node the symbol version node that first appears in it
   * @param gcc the GCC major that introduced the node ("GCC 14+" in messages when it is the newest
   *     known)
   * @param gompVersion its {@code GOMP_VERSION}: images whose registration word asks for more stop
   *     the program with "Library too old for offload"
   * @param gcnPluginVersion the {@code GOMP_VERSION_GCN} its GCN plugin accepts, only that one
   */
  public record Generation(String node, int gcc, int gompVersion, int gcnPluginVersion) {}

  /** Newest first; a libgomp with none of these nodes but some GOMP_ node is older than GCC 12. */
  static final List<Generation> GENERATIONS =
      List.of(
          // GOMP_target_map_indirect_ptr (indirect functions) is GCC 14's.
          new Generation("GOMP_5.1.2", 14, 3, 3),
          // GOMP_taskwait_depend_nowait is GCC 13's.
          new Generation("GOMP_5.1.1", 13, 2, 3),
          new Generation("GOMP_5.1", 12, 1, 2));

  private static final Generation OLDER = new Generation("GOMP_1.0", 11, 1, 2);

  /** A short name for messages: "libgomp of GCC 14+ (/usr/lib/.../libgomp.so.1.0.0)". */
  public String describe() {
    String gcc =
        generation == GENERATIONS.get(0)
            ? "GCC " + generation.gcc() + "+"
            : generation == OLDER ? "GCC 11 or older" : "GCC " + generation.gcc();
    return "libgomp of " + gcc + " (" + library + ")";
  }

  /**
   * The first {@code libgomp.so} in {@code folders} that is an ELF libgomp, or empty (none, a
   * linker script, unreadable: the check is advice, never a failure).
   */
  public static Optional<LibgompRuntime> find(List<Path> folders) {
    for (Path folder : folders) {
      Path candidate = folder.resolve("libgomp.so");
      if (!Files.isRegularFile(candidate)) {
        continue;
      }
      try {
        Path real = candidate.toRealPath();
        return generation(real).map(g -> new LibgompRuntime(real, g));
      } catch (IOException | RuntimeException e) {
        return Optional.empty(); // what the linker takes here is not something we can read
      }
    }
    return Optional.empty();
  }

  /** The generation of the libgomp shared object {@code library}, or empty if it is none. */
  static Optional<Generation> generation(Path library) throws IOException {
    Set<String> nodes = versionNodes(library);
    for (Generation g : GENERATIONS) {
      if (nodes.contains(g.node())) {
        return Optional.of(g);
      }
    }
    for (String node : nodes) {
      if (node.startsWith("GOMP_")) {
        return Optional.of(OLDER);
      }
    }
    return Optional.empty();
  }

  /** The names of the version definitions ({@code .gnu.version_d}) of an ELF shared object. */
  static Set<String> versionNodes(Path library) throws IOException {
    try (ElfFile elf = ElfReader.read(library)) {
      return new HashSet<>(elf.versionDefinitions());
    } catch (MalformedObjectException e) {
      return Set.of(); // not a shared object we can read: no generation, no warning
    }
  }
}
