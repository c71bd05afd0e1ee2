package org.offlink.streamer.opts;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.io.NativeCharset;

/**
 * The {@code .gnu.lto_.opts} / {@code .gnu.offload_lto_.opts} section: option strings in {@link
 * OptionQuoting} form, each terminated by NUL, uncompressed and without header. A single compile
 * writes one string; {@code ld -r} concatenates the sections of several objects (opts is the only
 * LTO section without an object-id suffix), so there may be several, and lto-wrapper decodes and
 * merges each in turn.
 *
 * <pre>
 * offset  content
 *      0  'opt1' 'opt2' … NUL      string 1
 *      …  'opt1' … NUL             string 2 (after ld -r), …
 * </pre>
 *
 * <p>Bytes are decoded as UTF-8 (the quoting only involves ASCII). An empty section holds no
 * strings; trailing bytes without a terminating NUL are an error (GCC would read past the section).
 */
public final class OptsSection {
  private OptsSection() {}

  /** Splits and decodes {@code data}, one option list per NUL-terminated string. */
  public static List<List<String>> parse(byte[] data) {
    List<List<String>> lists = new ArrayList<>();
    int from = 0;
    for (int i = 0; i < data.length; i++) {
      if (data[i] == 0) {
        lists.add(OptionQuoting.parse(new String(data, from, i - from, NativeCharset.CHARSET)));
        from = i + 1;
      }
    }
    if (from != data.length) {
      throw new IllegalArgumentException(
          "expected a NUL-terminated option string, found "
              + (data.length - from)
              + " bytes without a terminating NUL");
    }
    return List.copyOf(lists);
  }

  /** Like {@link #parse(byte[])}, reporting problems against the section in {@code file}. */
  public static List<List<String>> parse(Path file, long sectionOffset, byte[] data)
      throws MalformedObjectException {
    try {
      return parse(data);
    } catch (IllegalArgumentException e) {
      throw new MalformedObjectException(
          file, sectionOffset, "in .opts section: " + e.getMessage());
    }
  }

  /** Encodes option lists as a section: each {@link OptionQuoting#format} followed by NUL. */
  public static byte[] format(List<List<String>> lists) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (List<String> options : lists) {
      out.writeBytes(OptionQuoting.format(options).getBytes(NativeCharset.CHARSET));
      out.write(0);
    }
    return out.toByteArray();
  }
}
