package org.offlink.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TempDirectoryTest {
  private static final LinkScope SCOPE = LinkScope.withUmask(022);

  @TempDir Path dir;

  private static final Path CWD = Path.of("/work/here");

  @Test
  void theFirstUsableVariableWinsInLibibertysOrder() {
    Map<String, String> env = Map.of("TMPDIR", "/a", "TMP", "/b", "TEMP", "/c");
    assertEquals(Path.of("/a"), TempDirectory.choose(env, CWD, p -> true));
    assertEquals(Path.of("/b"), TempDirectory.choose(env, CWD, p -> !p.equals(Path.of("/a"))));
    assertEquals(Path.of("/c"), TempDirectory.choose(env, CWD, p -> p.equals(Path.of("/c"))));
  }

  @Test
  void anUnusableTmpdirFallsBackToTmpThenVarTmpThenUsrTmpThenTheWorkingDirectory() {
    Map<String, String> env = Map.of("TMPDIR", "/not-writable");
    assertEquals(
        Path.of("/tmp"), TempDirectory.choose(env, CWD, p -> !p.equals(Path.of("/not-writable"))));
    assertEquals(
        Path.of("/var/tmp"), TempDirectory.choose(env, CWD, p -> p.equals(Path.of("/var/tmp"))));
    assertEquals(
        Path.of("/usr/tmp"), TempDirectory.choose(env, CWD, p -> p.equals(Path.of("/usr/tmp"))));
    assertEquals(CWD, TempDirectory.choose(env, CWD, p -> false));
  }

  @Test
  void emptyVariablesAreSkippedAndRelativeOnesAreTakenFromTheWorkingDirectory() {
    Map<String, String> env = Map.of("TMPDIR", "", "TMP", "rel");
    assertEquals(CWD.resolve("rel"), TempDirectory.choose(env, CWD, p -> true));
  }

  @Test
  void realChecksRejectAFileAndAMissingDirectory() throws IOException {
    Path file = Files.createFile(dir.resolve("file"));
    Map<String, String> env =
        Map.of("TMPDIR", file.toString(), "TMP", dir.resolve("missing").toString(), "TEMP", "t");
    Files.createDirectory(dir.resolve("t"));
    assertEquals(dir.resolve("t"), TempDirectory.choose(env, dir));
  }

  @Test
  void filesAreCcPlusSixCharactersPlusSuffixPrivateAndTracked() throws IOException {
    Path f = TempDirectory.createFile(SCOPE, dir, ".target.o");
    assertTrue(f.getFileName().toString().matches("cc[A-Za-z0-9]{6}\\.target\\.o"), f.toString());
    assertEquals(
        Set.of("rw-------"),
        Set.of(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))));
    TempDirectory.delete(SCOPE, f);
    assertTrue(!Files.exists(f));
  }

  @Test
  void aFileIsTrackedByItsLinkUntilDeleted() throws IOException {
    LinkScope scope = LinkScope.withUmask(022);
    Path kept = TempDirectory.createFile(scope, dir, ".a");
    Path gone = TempDirectory.createFile(scope, dir, ".b");
    TempDirectory.delete(scope, gone);
    Files.createFile(gone); // someone else's now: no longer the link's to remove
    scope.cancel();
    assertTrue(!Files.exists(kept), "a tracked file outlived the cancel");
    assertTrue(Files.exists(gone), "an untracked file was removed");
  }

  @Test
  void aFailureNamesTheDirectoryAndTheSystemsReason() {
    Path missing = dir.resolve("gone");
    IOException e =
        assertThrows(IOException.class, () -> TempDirectory.createFile(SCOPE, missing, ".o"));
    assertEquals(
        "cannot create temporary file in " + missing + ": No such file or directory",
        e.getMessage());
  }
}
