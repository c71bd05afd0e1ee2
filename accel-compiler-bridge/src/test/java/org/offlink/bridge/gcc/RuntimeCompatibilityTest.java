package org.offlink.bridge.gcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.offlink.bridge.tool.OffloadTarget;

class RuntimeCompatibilityTest {
  private static final Path ROOTS = Path.of("/var/cache/offlink/roots");

  private static LibgompRuntime lib(int gcc) {
    for (LibgompRuntime.Generation g : LibgompRuntime.GENERATIONS) {
      if (g.gcc() == gcc) {
        return new LibgompRuntime(Path.of("/x/libgomp.so.1"), g);
      }
    }
    throw new IllegalArgumentException("no generation " + gcc);
  }

  private static Optional<String> check(OffloadTarget t, int gcc, int lib, long vars) {
    GccRelease r = GccRelease.of(gcc);
    int word = t == OffloadTarget.NVPTX ? r.nvptx().version() : r.gcn().version();
    return RuntimeCompatibility.check(t, gcc, word, OptionalLong.of(vars), lib(lib));
  }

  /** The table of delta §3.7, row by row: image style x libgomp generation. */
  @Test
  void theCompatibilityTable() {
    OffloadTarget nv = OffloadTarget.NVPTX;
    OffloadTarget gcn = OffloadTarget.AMDGCN;
    // nvptx 12 runs everywhere; 13 needs libgomp 13+; 14/15 need 14+.
    for (int lib : List.of(12, 13, 14)) {
      assertEquals(Optional.empty(), check(nv, 12, lib, 1));
    }
    assertTrue(check(nv, 13, 12, 1).orElseThrow().contains("Library too old"));
    assertEquals(Optional.empty(), check(nv, 13, 13, 1));
    assertEquals(Optional.empty(), check(nv, 13, 14, 1));
    assertTrue(check(nv, 14, 13, 1).orElseThrow().contains("Library too old"));
    assertEquals(Optional.empty(), check(nv, 15, 14, 1));
    // gcn 12 only on libgomp 12; gcn 13 on 13, and on 14+ only without variables.
    assertEquals(Optional.empty(), check(gcn, 12, 12, 1));
    assertTrue(check(gcn, 12, 13, 0).orElseThrow().contains("incompatible with GCN plugin"));
    assertTrue(check(gcn, 12, 14, 0).orElseThrow().contains("incompatible with GCN plugin"));
    assertTrue(check(gcn, 13, 12, 0).orElseThrow().contains("Library too old"));
    assertEquals(Optional.empty(), check(gcn, 13, 13, 2));
    assertEquals(Optional.empty(), check(gcn, 13, 14, 0));
    String misread = check(gcn, 13, 14, 2).orElseThrow();
    assertTrue(misread.contains("its 2 declare target variable(s)"), misread);
    assertTrue(misread.contains("GCC 13 link") && misread.contains("GCC 14+"), misread);
    assertTrue(check(gcn, 14, 13, 0).orElseThrow().contains("Library too old"));
    assertEquals(Optional.empty(), check(gcn, 15, 14, 5));
  }

  @Test
  void unknownVariableCountWarnsConditionally() {
    GccRelease r = GccRelease.of(13);
    String w =
        RuntimeCompatibility.check(
                OffloadTarget.AMDGCN, 13, r.gcn().version(), OptionalLong.empty(), lib(14))
            .orElseThrow();
    assertTrue(w.contains("any declare target variables it has"), w);
  }

  @Test
  void bookwormsLibgompIsGcc12s() throws Exception {
    Path so = Path.of("/usr/lib/gcc/x86_64-linux-gnu/12");
    assumeTrue(Files.exists(so.resolve("libgomp.so")), "GCC 12's libgomp is not installed");
    LibgompRuntime found = LibgompRuntime.find(List.of(Path.of("/nonexistent"), so)).orElseThrow();
    assertEquals(12, found.generation().gcc());
    assertEquals(1, found.generation().gompVersion());
    assertTrue(found.library().toString().contains("libgomp.so.1"), found.library().toString());
  }

  /** The libgomps of the Debian roots (trixie: GCC 14's; sid: GCC 16's) read as 14+. */
  @Test
  void theRootsLibgompsAreGcc14Plus() throws Exception {
    int seen = 0;
    for (int major : List.of(13, 14, 15, 16)) {
      Path dir = ROOTS.resolve("gcc-" + major).resolve("usr/lib/x86_64-linux-gnu");
      if (Files.exists(dir.resolve("libgomp.so.1"))) {
        assertEquals(
            14,
            LibgompRuntime.generation(dir.resolve("libgomp.so.1").toRealPath()).orElseThrow().gcc(),
            dir.toString());
        seen++;
      }
    }
    assumeTrue(
        seen > 0, "no Debian roots under " + ROOTS + " (scripts/setup-toolchain.sh --gcc V)");
  }

  @Test
  void somethingThatIsNotLibgompIsNoRuntime() throws Exception {
    Path dir = Files.createTempDirectory("libgomp-test");
    try {
      Files.writeString(dir.resolve("libgomp.so"), "INPUT ( libgomp.so.1 )\n");
      assertEquals(Optional.empty(), LibgompRuntime.find(List.of(dir)));
    } finally {
      Files.delete(dir.resolve("libgomp.so"));
      Files.delete(dir);
    }
  }
}
