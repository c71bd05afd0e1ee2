package org.offlink.cli.replay;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import org.offlink.ltowrapper.report.proto.ReproducerManifest;

/**
 * A bundle's {@code manifest.json}: the proto3 JSON mapping with the .proto field names (written by
 * lto-wrapper's {@code Reproducer} with {@code LinkReportWriter.json}). A bundle comes from a
 * stranger, so the reader bounds what it accepts before the JSON parser sees it ({@link JsonShape}:
 * the size and the nesting depth) and turns every parser failure into one short line naming the
 * file.
 */
final class ManifestJson {
  /** Immutable and thread-safe; building one costs more than a small manifest's parse. */
  private static final JsonFormat.Parser PARSER = JsonFormat.parser().ignoringUnknownFields();

  private ManifestJson() {}

  /**
   * The manifest in {@code json}.
   *
   * @param name the file, for messages
   * @throws IllegalArgumentException one line naming {@code name}: what was expected, what found
   */
  static ReproducerManifest decode(String json, String name) {
    JsonShape.check(json, name, "a reproducer manifest");
    ReproducerManifest.Builder b = ReproducerManifest.newBuilder();
    try {
      PARSER.merge(json, b);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      // Gson and protobuf throw several kinds (EOFException wrapped, NumberFormatException,
      // IllegalStateException, ...) with their own long texts: one short line for all of them.
      throw new IllegalArgumentException(
          name + ": expected a reproducer manifest (JSON), found " + JsonShape.problem(e), e);
    }
    return b.build();
  }
}
