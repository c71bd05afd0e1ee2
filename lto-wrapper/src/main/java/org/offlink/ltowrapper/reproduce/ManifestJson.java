package org.offlink.ltowrapper.reproduce;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import org.offlink.ltowrapper.report.LinkReportWriter;
import org.offlink.ltowrapper.report.proto.ReproducerManifest;

/** A bundle's {@code manifest.json}: the proto3 JSON mapping with the .proto field names. */
final class ManifestJson {
  private ManifestJson() {}

  static byte[] encode(ReproducerManifest manifest) {
    return LinkReportWriter.json(manifest);
  }

  static ReproducerManifest decode(String json, String name) {
    ReproducerManifest.Builder b = ReproducerManifest.newBuilder();
    try {
      JsonFormat.parser().ignoringUnknownFields().merge(json, b);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          name + ": expected a reproducer manifest (JSON), found: " + e.getMessage(), e);
    }
    return b.build();
  }
}
