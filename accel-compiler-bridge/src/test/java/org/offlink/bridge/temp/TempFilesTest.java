package org.offlink.bridge.temp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.TestContexts;

/** The one temporary-file scope, with mkoffload's and lto-wrapper's rules. */
class TempFilesTest {
  @TempDir Path tmp;
  @TempDir Path cwd;
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

  private TempFiles scope(boolean saveTemps, boolean verbose) {
    return new TempFiles(
        TestContexts.of(Map.of("TMPDIR", tmp.toString()), cwd, err), saveTemps, verbose);
  }

  @Test
  void createdRegisteredAndScratchFilesGoAtCloseReleasedOnesStay() throws Exception {
    TempFiles t = scope(false, false);
    Path made = t.create(".o");
    assertTrue(made.getFileName().toString().matches("cc.{6}\\.o"), made.toString());
    assertEquals(tmp, made.getParent());
    Files.writeString(cwd.resolve("list"), "x");
    Files.writeString(cwd.resolve("handed"), "x");
    t.register("list");
    t.register("handed");
    t.register("handed");
    t.release("handed"); // registered twice, released once: still handed over
    Path scratch = t.scratch(".rsp");
    t.close();
    assertFalse(Files.exists(made));
    assertFalse(Files.exists(cwd.resolve("list")));
    assertFalse(Files.exists(scratch));
    assertTrue(Files.exists(cwd.resolve("handed")));
  }

  @Test
  void unlinkDeletesNowUnlessSaveTemps() throws Exception {
    TempFiles t = scope(false, false);
    Files.writeString(cwd.resolve("a.ltrans.o"), "x");
    assertFalse(t.unlink("a.ltrans.o"));
    assertFalse(Files.exists(cwd.resolve("a.ltrans.o")));
    Files.createDirectory(cwd.resolve("dir"));
    t.unlink("dir");
    assertTrue(Files.isDirectory(cwd.resolve("dir")), "a directory is left alone");
  }

  @Test
  void saveTempsKeepsEverythingButScratchAndNamesTheKeptOnes() throws Exception {
    TempFiles t = scope(true, true);
    Path made = t.create(".o");
    Files.writeString(cwd.resolve("list"), "x");
    t.register("list");
    Files.writeString(cwd.resolve("b.ltrans.o"), "x");
    assertTrue(t.unlink("b.ltrans.o"));
    String kept = t.named("x.mkoffload", ".s");
    Path scratch = t.scratch(".rsp");
    t.close();
    assertEquals("x.mkoffload", kept);
    assertTrue(Files.exists(made));
    assertTrue(Files.exists(cwd.resolve("list")));
    assertTrue(Files.exists(cwd.resolve("b.ltrans.o")));
    assertFalse(Files.exists(scratch));
    assertEquals("[Leaving x.mkoffload]\n", errBytes.toString(StandardCharsets.UTF_8));
  }
}
