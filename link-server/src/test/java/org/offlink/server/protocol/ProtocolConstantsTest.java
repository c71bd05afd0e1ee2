package org.offlink.server.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The C client's protocol.h and the Java side agree on every constant. */
class ProtocolConstantsTest {
  private static final Pattern DEFINE =
      Pattern.compile("^#define (OFL_\\w+) (.+?)\\s*(/\\*.*)?$", Pattern.MULTILINE);

  private static Map<String, String> header() throws IOException {
    String text = Files.readString(Path.of("src/main/c/protocol.h"));
    Map<String, String> defines = new HashMap<>();
    Matcher m = DEFINE.matcher(text);
    while (m.find()) {
      defines.put(m.group(1), m.group(2).trim());
    }
    return defines;
  }

  private static long number(String expression) {
    // "(16u * 1024u * 1024u)", "1", "'Q'"
    if (expression.startsWith("'")) {
      return expression.charAt(1);
    }
    long value = 1;
    for (String factor : expression.replaceAll("[()u]", "").split("\\*")) {
      value *= Long.parseLong(factor.trim());
    }
    return value;
  }

  @Test
  void limitsAndVersionAgree() throws IOException {
    Map<String, String> h = header();
    assertEquals(Protocol.VERSION, number(h.get("OFL_PROTOCOL_VERSION")));
    assertEquals("\"" + Protocol.REQUEST_MAGIC + "\"", h.get("OFL_REQUEST_MAGIC"));
    assertEquals(Protocol.MAX_REQUEST, number(h.get("OFL_MAX_REQUEST")));
    assertEquals(Protocol.MAX_FRAME, number(h.get("OFL_MAX_FRAME")));
    assertEquals(Protocol.DATA_CHUNK, number(h.get("OFL_DATA_CHUNK")));
  }

  @Test
  void frameTypesAgree() throws IOException {
    Map<String, String> h = header();
    Map<FrameType, String> names =
        Map.ofEntries(
            Map.entry(FrameType.REQUEST, "OFL_REQUEST"),
            Map.entry(FrameType.STATUS, "OFL_STATUS"),
            Map.entry(FrameType.STOP, "OFL_STOP"),
            Map.entry(FrameType.STDIN, "OFL_STDIN"),
            Map.entry(FrameType.CANCEL, "OFL_CANCEL"),
            Map.entry(FrameType.ACCEPTED, "OFL_ACCEPTED"),
            Map.entry(FrameType.READY, "OFL_READY"),
            Map.entry(FrameType.LISTENING, "OFL_LISTENING"),
            Map.entry(FrameType.REFUSED, "OFL_REFUSED"),
            Map.entry(FrameType.OUT, "OFL_OUT"),
            Map.entry(FrameType.ERR, "OFL_ERR"),
            Map.entry(FrameType.WANT_STDIN, "OFL_WANT_STDIN"),
            Map.entry(FrameType.CHILD_GROUP, "OFL_CHILD_GROUP"),
            Map.entry(FrameType.CHILD_DONE, "OFL_CHILD_DONE"),
            Map.entry(FrameType.TEMP_FILE, "OFL_TEMP_FILE"),
            Map.entry(FrameType.TEMP_DONE, "OFL_TEMP_DONE"),
            Map.entry(FrameType.EXIT, "OFL_EXIT"),
            Map.entry(FrameType.STATUS_TEXT, "OFL_STATUS_TEXT"));
    assertEquals(FrameType.values().length, names.size());
    names.forEach((type, name) -> assertEquals(type.code(), number(h.get(name)), name));
  }

  @Test
  void codesAgree() throws IOException {
    Map<String, String> h = header();
    assertEquals(ToolKind.LTO_WRAPPER.code(), number(h.get("OFL_TOOL_LTO_WRAPPER")));
    assertEquals(ToolKind.MKOFFLOAD_NVPTX.code(), number(h.get("OFL_TOOL_MKOFFLOAD_NVPTX")));
    assertEquals(ToolKind.MKOFFLOAD_GCN.code(), number(h.get("OFL_TOOL_MKOFFLOAD_GCN")));
    assertEquals(RefusalReason.IDENTITY.code(), number(h.get("OFL_REFUSE_IDENTITY")));
    assertEquals(RefusalReason.BAD_REQUEST.code(), number(h.get("OFL_REFUSE_BAD_REQUEST")));
    assertEquals(RefusalReason.PEER.code(), number(h.get("OFL_REFUSE_PEER")));
  }
}
