package org.offlink.ltowrapper.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.offlink.ltowrapper.report.proto.LinkReport;

class ProtoTextTest {
  /** "café" as the launchers' ISO-8859-1 JVM sees the UTF-8 bytes of a file name. */
  private static final String CAFE_AS_LATIN1 =
      new String("café".getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);

  @Test
  void stringsAreReReadAsUtf8InNestedAndRepeatedFields() throws Exception {
    LinkReport report = sample(CAFE_AS_LATIN1);
    LinkReport converted = ProtoText.asUtf8(report, StandardCharsets.ISO_8859_1);
    assertEquals(sample("café"), converted);
  }

  @Test
  void aUtf8JvmKeepsTheMessage() {
    LinkReport report = sample("café");
    assertSame(report, ProtoText.asUtf8(report, StandardCharsets.UTF_8));
  }

  private static LinkReport sample(String name) {
    LinkReport.Builder b = LinkReport.newBuilder();
    // Fill every string field reachable at the first two levels with the name.
    fill(b, name, 2);
    return b.build();
  }

  private static void fill(com.google.protobuf.Message.Builder b, String name, int depth) {
    for (com.google.protobuf.Descriptors.FieldDescriptor f : b.getDescriptorForType().getFields()) {
      switch (f.getJavaType()) {
        case STRING:
          if (f.isRepeated()) {
            b.addRepeatedField(f, name);
            b.addRepeatedField(f, "x/" + name);
          } else {
            b.setField(f, name);
          }
          break;
        case MESSAGE:
          if (depth > 0) {
            com.google.protobuf.Message.Builder child = b.newBuilderForField(f);
            fill(child, name, depth - 1);
            if (f.isRepeated()) {
              b.addRepeatedField(f, child.build());
            } else {
              b.setField(f, child.build());
            }
          }
          break;
        default:
          break;
      }
    }
  }
}
