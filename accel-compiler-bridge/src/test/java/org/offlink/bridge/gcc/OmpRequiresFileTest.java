package org.offlink.bridge.gcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.TestContexts;
import org.offlink.bridge.temp.TempFiles;

class OmpRequiresFileTest {
  @TempDir Path dir;

  private TempFiles temps(boolean saveTemps, PrintStream err) {
    return new TempFiles(
        TestContexts.of(Map.of("TMPDIR", dir.toString()), dir, err), saveTemps, false);
  }

  @Test
  void saveTempsNameAndLittleEndianMask() throws IOException {
    try (TempFiles temps = temps(true, System.err)) {
      OmpRequiresFile f = OmpRequiresFile.create(new MkoffloadDumpNames("./x.xnvptx-none"), temps);
      assertEquals("./x.xnvptx-none.mkoffload.omp_requires", f.name());
      Files.write(f.path(), new byte[] {(byte) 0x80, 0x02, 0, 0});
      assertEquals(0x280, f.readMask());
    }
  }

  @Test
  void tempNameIsRemovedAtClose() throws IOException {
    OmpRequiresFile f;
    try (TempFiles temps = temps(false, System.err)) {
      f = OmpRequiresFile.create(new MkoffloadDumpNames("x"), temps);
      assertTrue(f.name().endsWith(".mkoffload.omp_requires"), f.name());
    }
    assertFalse(Files.exists(f.path()));
  }

  @Test
  void exportIsPrintedWithVerbose() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    OmpRequiresFile f = new OmpRequiresFile("a.omp_requires", dir.resolve("a.omp_requires"));
    Map<String, String> env = f.exportTo(Map.of("PATH", "/bin"), true, err);
    assertEquals("a.omp_requires", env.get("GCC_OFFLOAD_OMP_REQUIRES_FILE"));
    assertEquals("/bin", env.get("PATH"));
    assertEquals("GCC_OFFLOAD_OMP_REQUIRES_FILE=a.omp_requires\n", bytes.toString());
  }

  @Test
  void missingAndShortFilesAreGccsErrors() throws IOException {
    OmpRequiresFile f = new OmpRequiresFile("m.omp_requires", dir.resolve("m.omp_requires"));
    IOException open = assertThrows(IOException.class, f::readMask);
    assertEquals("cannot open omp_requires file 'm.omp_requires'", open.getMessage());
    Files.write(f.path(), new byte[] {1, 2});
    IOException read = assertThrows(IOException.class, f::readMask);
    assertEquals("cannot read omp_requires file 'm.omp_requires'", read.getMessage());
  }
}
