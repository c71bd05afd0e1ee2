package org.offlink.cli.replay;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.offlink.ltowrapper.report.ReportFormat;
import org.offlink.ltowrapper.report.proto.LinkReport;

/**
 * Reads a link report back: JSON when the name ends in {@code .json}, else binary protobuf. A
 * report may come from a bundle, so it is read within {@link JsonShape}'s bounds.
 */
public final class ReportFiles {
  private ReportFiles() {}

  /**
   * The report in {@code file}.
   *
   * @throws IllegalArgumentException one line naming the file when it is not a link report
   */
  public static LinkReport read(Path file) throws IOException {
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes(JsonShape.MAX_CHARS + 1);
    }
    return parse(bytes, file.toString(), ReportFormat.forFile(file));
  }

  /**
   * The report in {@code bytes}, read from {@code name} (for messages) in {@code format}.
   *
   * @throws IllegalArgumentException one line naming {@code name} when it is not a link report
   */
  static LinkReport parse(byte[] bytes, String name, ReportFormat format) {
    String expected = "a link report (" + format + ")";
    if (bytes.length > JsonShape.MAX_CHARS) {
      throw new IllegalArgumentException(
          name
              + ": expected "
              + expected
              + " of at most "
              + (JsonShape.MAX_CHARS >> 20)
              + " MiB, found more");
    }
    String json = null;
    if (format == ReportFormat.JSON) {
      json = BundleReader.text(bytes, name);
      JsonShape.check(json, name, expected);
    }
    try {
      if (json != null) {
        LinkReport.Builder b = LinkReport.newBuilder();
        JsonFormat.parser().ignoringUnknownFields().merge(json, b);
        return b.build();
      }
      return LinkReport.parseFrom(bytes);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      // Gson and protobuf throw several kinds with long texts: one short line for all of them.
      throw new IllegalArgumentException(
          name + ": expected " + expected + ", found " + JsonShape.problem(e), e);
    }
  }
}
