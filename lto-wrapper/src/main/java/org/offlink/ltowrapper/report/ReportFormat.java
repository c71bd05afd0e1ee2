package org.offlink.ltowrapper.report;

import java.nio.file.Path;
import java.util.Locale;

/** How a link report is encoded, chosen by the file name {@code OFFLINK_REPORT} gives. */
public enum ReportFormat {
  /** The proto3 JSON mapping, for a name ending in {@code .json} (any case). */
  JSON,
  /** The protobuf binary encoding of {@code offlink.report.LinkReport}, for any other name. */
  BINARY;

  /** The format for {@code file}. */
  public static ReportFormat forFile(Path file) {
    Path name = file.getFileName();
    return name != null && name.toString().toLowerCase(Locale.ROOT).endsWith(".json")
        ? JSON
        : BINARY;
  }
}
