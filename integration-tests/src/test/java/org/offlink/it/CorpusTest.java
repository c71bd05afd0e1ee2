package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CorpusTest {
  @Test
  void everyDescriptorNamesExistingDistinctSourcesAndAnExpectation() {
    for (CorpusProgram p : Corpus.all()) {
      Set<String> objects = new HashSet<>();
      for (String source :
          Stream.of(p.sources(), p.staticSources(), p.sharedSources())
              .flatMap(List::stream)
              .toList()) {
        assertTrue(Files.isRegularFile(p.directory().resolve(source)), p + ": " + source);
        assertTrue(objects.add(source.substring(0, source.lastIndexOf('.'))), p + ": object clash");
      }
      assertEquals(p.linkFails(), p.expectedOutput().isEmpty(), p + ": expected.out");
    }
  }

  @Test
  void targetSetsTurnIntoDriverOptions() {
    assertEquals(List.of("-foffload=nvptx-none"), TargetSet.NVPTX.driverOptions());
    assertEquals(
        List.of(
            "-foffload=nvptx-none,amdgcn-amdhsa", "-foffload-options=amdgcn-amdhsa=-march=gfx906"),
        TargetSet.both("gfx906").driverOptions());
    assertEquals("nvptx+gcn-gfx906", TargetSet.both("gfx906").label());
    assertFalse(ToolDir.stock().driverOptions().contains("-B"));
    assertEquals(
        List.of("-B", "/x/tools/"),
        new ToolDir("t", java.util.Optional.of(Path.of("/x/tools"))).driverOptions());
  }

  @Test
  void unknownDescriptorKeysAreRejected(@TempDir Path dir) throws IOException {
    Path program = Files.createDirectories(dir.resolve("bad_key"));
    Files.writeString(
        program.resolve("build.properties"), "language=c\nmodel=openmp\nsources=a.c\nsource=b.c\n");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Corpus.read(program));
    assertTrue(e.getMessage().contains("unknown key source"), e.getMessage());
  }
}
