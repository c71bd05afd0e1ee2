package org.offlink.ltowrapper.report;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.offlink.runtime.NativeCharset;

/**
 * Protobuf strings are UTF-8 text, but the report's strings (paths, options, stderr lines) are
 * bytes of the operating system decoded with {@link NativeCharset}. Where that charset is not UTF-8
 * (the launchers' byte-transparent locale), each string is re-read as the UTF-8 its bytes spell, so
 * a UTF-8 file name is the same text in the binary report as in the JSON one, instead of being
 * encoded twice; bytes that are not UTF-8 become U+FFFD.
 */
final class ProtoText {
  private ProtoText() {}

  static <M extends Message> M asUtf8(M message) {
    return asUtf8(message, NativeCharset.CHARSET);
  }

  @SuppressWarnings("unchecked")
  static <M extends Message> M asUtf8(M message, Charset nativeCharset) {
    if (nativeCharset.equals(StandardCharsets.UTF_8)) {
      return message;
    }
    Message.Builder builder = message.toBuilder();
    for (Map.Entry<FieldDescriptor, Object> field : message.getAllFields().entrySet()) {
      FieldDescriptor descriptor = field.getKey();
      if (descriptor.isRepeated()) {
        List<Object> values = new ArrayList<>();
        for (Object value : (List<?>) field.getValue()) {
          values.add(convert(descriptor, value, nativeCharset));
        }
        builder.setField(descriptor, values);
      } else {
        builder.setField(descriptor, convert(descriptor, field.getValue(), nativeCharset));
      }
    }
    return (M) builder.build();
  }

  private static Object convert(FieldDescriptor descriptor, Object value, Charset nativeCharset) {
    switch (descriptor.getJavaType()) {
      case STRING:
        return new String(((String) value).getBytes(nativeCharset), StandardCharsets.UTF_8);
      case MESSAGE:
        return asUtf8((Message) value, nativeCharset);
      default:
        return value;
    }
  }
}
