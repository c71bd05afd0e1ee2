package org.offlink.ltowrapper.report;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import java.io.IOException;
import java.nio.file.Path;
import org.offlink.ltowrapper.report.proto.LinkReport;
import org.offlink.runtime.AtomicFiles;
import org.offlink.runtime.LinkScope;
import org.offlink.runtime.NativeCharset;

/**
 * Encodes a {@link LinkReport} and writes it atomically: to a temporary file beside the target,
 * then renamed over it, so a reader never sees half a report. JSON keeps the {@code .proto} field
 * names, prints every field (zeros and empty lists included) in field-number order and ends with a
 * newline; the same report always gives the same bytes.
 */
public final class LinkReportWriter {
  private static final Gson PRETTY =
      new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create();

  private LinkReportWriter() {}

  /** The bytes of {@code report} in {@code format}. */
  public static byte[] encode(LinkReport report, ReportFormat format) {
    if (format == ReportFormat.BINARY) {
      return ProtoText.asUtf8(report).toByteArray();
    }
    return json(report);
  }

  /**
   * {@code message} as this writer's JSON (the reproducer manifest uses it too): the .proto field
   * names, every field, one layout, no HTML escaping, a final newline.
   */
  public static byte[] json(MessageOrBuilder message) {
    try {
      String json =
          JsonFormat.printer()
              .preservingProtoFieldNames()
              .includingDefaultValueFields()
              .print(message);
      // Re-printed for one layout throughout (JsonFormat mixes inline and one-per-line lists) and
      // without HTML escaping ('=' as \u003d in every option is unreadable); same tree, same order.
      JsonElement tree = JsonParser.parseString(json);
      // The text is ASCII but for the paths and options it quotes, which are the OS's bytes as
      // decoded by NativeCharset: encoding it back gives those bytes (UTF-8 JSON for UTF-8 names).
      return (PRETTY.toJson(tree) + "\n").getBytes(NativeCharset.CHARSET);
    } catch (InvalidProtocolBufferException e) {
      // Only Any fields with unknown types fail to print; our messages have none.
      throw new IllegalStateException("cannot print " + message.getClass().getSimpleName(), e);
    }
  }

  /** Writes {@code report} to {@code file} in the format its name asks for. */
  public static void write(LinkScope scope, Path file, LinkReport report) throws IOException {
    byte[] bytes = encode(report, ReportFormat.forFile(file));
    AtomicFiles.write(scope, file, bytes);
  }
}
