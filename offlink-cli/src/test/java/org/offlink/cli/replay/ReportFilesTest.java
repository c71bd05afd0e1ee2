package org.offlink.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.ltowrapper.report.LinkReportWriter;
import org.offlink.ltowrapper.report.proto.LinkReport;
import org.offlink.runtime.LinkScope;

/** Reports read back in both encodings; a file that is not one is a one-line error. */
class ReportFilesTest {
  @TempDir Path dir;

  @Test
  void bothEncodingsRoundTrip() throws IOException {
    LinkReport r = LinkReport.newBuilder().setExitStatus(1).setError("boom").build();
    LinkReportWriter.write(LinkScope.withUmask(022), dir.resolve("r.json"), r);
    LinkReportWriter.write(LinkScope.withUmask(022), dir.resolve("r.pb"), r);
    assertEquals(r, ReportFiles.read(dir.resolve("r.json")));
    assertEquals(r, ReportFiles.read(dir.resolve("r.pb")));
  }

  @Test
  void notAReportNamesTheFile() throws IOException {
    Path bad = dir.resolve("bad_report.json");
    Files.writeString(bad, "{ \"exit_status\": \"not a number\" }");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ReportFiles.read(bad));
    assertTrue(
        e.getMessage()
            .startsWith(bad + ": expected a link report (JSON), found a malformed number"),
        e.getMessage());
    assertTrue(e.getMessage().lines().count() == 1, e.getMessage());
  }
}
