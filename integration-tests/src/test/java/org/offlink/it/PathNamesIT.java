package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18, item 3: any file name GCC accepts works. {@code src/test/scripts/path-names.sh} links
 * an nvptx offload program with stock GCC 12 and through offlink ({@code gcc -B}) for each locale
 * ({@code LC_ALL=C}, {@code LC_ALL=C.UTF-8}, {@code LANG=C.UTF-8}, and {@code en_US.UTF-8} where
 * installed) and each name (a space, quotes, {@code é} as NFC and as NFD, a leading dash), the name
 * being in the working directory, {@code TMPDIR}, the {@code -B} folder, the source and the output;
 * offlink must link, and the program run, wherever stock links. The script makes the names from
 * bytes: a JVM under {@code LANG=C} could not.
 */
class PathNamesIT {
  private static final Path SCRIPT = Path.of("src/test/scripts/path-names.sh");

  private static final Path LONG_CWD_SCRIPT = Path.of("src/test/scripts/long-cwd.sh");

  private static List<String> run(String group, Path work)
      throws IOException, InterruptedException {
    return runScript(SCRIPT, work, group);
  }

  private static List<String> runScript(Path script, Path work, String last)
      throws IOException, InterruptedException {
    String dist = System.getProperty("offlink.dist");
    assertNotNull(dist, "system property offlink.dist (set by failsafe)");
    ProcessBuilder pb =
        new ProcessBuilder("bash", script.toString(), dist, work.toString(), last)
            .redirectErrorStream(true);
    LinkMode.apply(pb.environment());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    int status = p.waitFor();
    List<String> results = out.lines().filter(l -> l.startsWith("RESULT ")).toList();
    assertEquals(0, status, out);
    return results;
  }

  @Test
  void everyUtf8NameLinksWhereStockLinksInEveryLocale(@TempDir Path work) throws Exception {
    List<String> results = run("utf8", work);
    assertTrue(results.size() >= 15, "3 locales x 5 names at least: " + results);
    for (String r : results) {
      assertTrue(r.endsWith("stock=0 ours=0 ran=0"), r);
    }
  }

  /**
   * Issue 18, item 8: {@code -save-temps} in a working directory of 4,090 characters, where GCC's
   * dump names only work relative (the absolute ones pass PATH_MAX): for nvptx, GCN and both,
   * offlink links where stock links, and the program registers byte for byte what stock's does (the
   * spy). {@code src/test/scripts/long-cwd.sh} makes the directories: the JVM cannot.
   */
  @Test
  void saveTempsInA4090CharacterDirectoryLinksAndRegistersAsStock(@TempDir Path work)
      throws Exception {
    Path spy = Toolchain.create(work).spyLibrary();
    List<String> results = runScript(LONG_CWD_SCRIPT, work, spy.toString());
    assertEquals(3, results.size(), "nvptx, GCN and both: " + results);
    for (String r : results) {
      assertTrue(r.endsWith("stock=0 ours=0 ran=0 spy=same"), r);
    }
  }

  /**
   * A name with bytes that are not UTF-8 ({@code caf\351}, Latin-1) in every locale: no UTF-8
   * locale can decode it, so the launchers run the JVM in the tree's byte-transparent ISO-8859-1
   * locale and the tools read and write paths and option text with that charset (NativeCharset).
   */
  @Test
  void aLatin1NameLinksWhereStockLinks(@TempDir Path work) throws Exception {
    List<String> results = run("latin1", work);
    assertTrue(results.size() >= 3, "3 locales at least: " + results);
    for (String r : results) {
      assertTrue(r.endsWith("stock=0 ours=0 ran=0"), r);
    }
  }
}
