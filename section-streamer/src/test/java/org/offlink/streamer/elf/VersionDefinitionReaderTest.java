package org.offlink.streamer.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class VersionDefinitionReaderTest {
  /** glibc defines its soname node first, then GLIBC_2.2.5 and the later ones, in order. */
  @Test
  void readsGlibcsVersionNodesInFileOrder() throws Exception {
    try (ElfFile libc = ElfReader.read(Path.of("/lib/x86_64-linux-gnu/libc.so.6").toRealPath())) {
      List<String> nodes = libc.versionDefinitions();
      assertEquals("libc.so.6", nodes.get(0));
      assertTrue(nodes.indexOf("GLIBC_2.2.5") > 0, nodes.toString());
      assertTrue(nodes.indexOf("GLIBC_2.34") > nodes.indexOf("GLIBC_2.2.5"), nodes.toString());
    }
  }

  @Test
  void anObjectWithoutDefinitionsHasNone() throws Exception {
    try (ElfFile exe = ElfReader.read(Path.of("/bin/true").toRealPath())) {
      assertEquals(List.of(), exe.versionDefinitions());
    }
  }
}
