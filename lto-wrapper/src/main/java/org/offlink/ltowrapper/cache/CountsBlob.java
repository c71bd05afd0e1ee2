package org.offlink.ltowrapper.cache;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.offlink.bridge.image.ImageCounts;

/**
 * The second blob of a remote entry: the image's host-table counts, as UTF-8 text.
 *
 * <pre>
 * functions=N\n
 * variables=M\n
 * </pre>
 *
 * N and M are decimal, without sign or leading zeros; nothing else may appear, so that equal counts
 * are equal blobs (one CAS entry).
 */
final class CountsBlob {
  private static final Pattern FORM =
      Pattern.compile("functions=(0|[1-9][0-9]{0,17})\nvariables=(0|[1-9][0-9]{0,17})\n");

  private CountsBlob() {}

  /** The blob for {@code counts}. */
  static byte[] write(ImageCounts counts) {
    String text = "functions=" + counts.functions() + "\nvariables=" + counts.variables() + "\n";
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The counts a blob holds.
   *
   * @throws RemoteCacheException when it is not in the form {@link #write} gives
   */
  static ImageCounts read(byte[] blob) throws RemoteCacheException {
    Matcher m = FORM.matcher(new String(blob, StandardCharsets.UTF_8));
    if (!m.matches()) {
      throw new RemoteCacheException(
          "the counts blob is not 'functions=N\\nvariables=M\\n'", false);
    }
    return new ImageCounts(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
  }
}
