package org.offlink.streamer.opts;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.offlink.runtime.NativeCharset;
import org.offlink.streamer.MalformedObjectException;

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
 * <p>Bytes are decoded in the native charset (the quoting only involves ASCII). An empty section
 * holds no strings. Trailing bytes without a terminating NUL are one last string: GCC 12's
 * lto-wrapper ({@code find_and_merge_options}) reads the section into a buffer of exactly its size
 * and steps from string to string with {@code strlen}, so it too takes those bytes as a last string
 * (reading on to whatever NUL follows in memory); offlink stops at the section's end. This is the
 * one splitter: lto-wrapper and the section-streamer CLI both use {@link #split}.
 */
public final class OptsSection {
  private OptsSection() {}

  /** The section's strings, still quoted: one per NUL, plus unterminated trailing bytes. */
  public static List<String> split(byte[] data) {
    List<String> strings = new ArrayList<>();
    int from = 0;
    for (int i = 0; i < data.length; i++) {
      if (data[i] == 0) {
        strings.add(new String(data, from, i - from, NativeCharset.CHARSET));
        from = i + 1;
      }
    }
    if (from < data.length) {
      strings.add(new String(data, from, data.length - from, NativeCharset.CHARSET));
    }
    return strings;
  }

  /** Splits and decodes {@code data}, one option list per string of {@link #split}. */
  public static List<List<String>> parse(byte[] data) {
    List<List<String>> lists = new ArrayList<>();
    for (String s : split(data)) {
      lists.add(OptionQuoting.parse(s));
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
