package org.offlink.ltowrapper.reproduce;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.offlink.ltowrapper.report.ReportFormat;
import org.offlink.ltowrapper.report.proto.LinkReport;

/** Reads a link report back: JSON when the name ends in {@code .json}, else binary protobuf. */
public final class ReportFiles {
  private ReportFiles() {}

  /**
   * The report in {@code file}.
   *
   * @throws IllegalArgumentException one line naming the file when it is not a link report
   */
  public static LinkReport read(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    try {
      if (ReportFormat.forFile(file) == ReportFormat.JSON) {
        LinkReport.Builder b = LinkReport.newBuilder();
        JsonFormat.parser()
            .ignoringUnknownFields()
            .merge(new String(bytes, StandardCharsets.UTF_8), b);
        return b.build();
      }
      return LinkReport.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          file
              + ": expected a link report ("
              + ReportFormat.forFile(file)
              + "), found: "
              + e.getMessage(),
          e);
    }
  }
}
