package org.offlink.streamer.ar;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.offlink.runtime.NativeCharset;

/**
 * Writes an {@link OffloadObjectList} in the layout lto-plugin uses (count line, one name a line).
 */
public final class OffloadObjectListWriter {
  private OffloadObjectListWriter() {}

  /** The file content. */
  public static String format(OffloadObjectList list) {
    StringBuilder sb = new StringBuilder().append(list.entries().size()).append('\n');
    for (String e : list.entries()) {
      sb.append(e).append('\n');
    }
    return sb.toString();
  }

  /** Writes {@code list} to {@code file}, replacing it. */
  public static void write(Path file, OffloadObjectList list) throws IOException {
    Files.writeString(file, format(list), NativeCharset.CHARSET);
  }
}
