package org.offlink.ltowrapper.lto;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.offlink.ltowrapper.run.LtoWrapperException;
import org.offlink.runtime.NativeCharset;

/**
 * The WPA output list ({@code -fltrans-output-list=}): pairs of lines {@code <priority>\n<path>\n};
 * a path starting with {@code *} is passed through without an LTRANS compile (LW:1940).
 */
public final class LtransList {
  private LtransList() {}

  /** One partition. */
  public record Entry(int priority, String input, boolean passThrough) {
    /**
     * The object printed for this partition: the pass-through name, or input minus .o + .ltrans.o.
     */
    public String output() {
      if (passThrough) {
        return input;
      }
      return input.substring(0, Math.max(0, input.length() - 2)) + ".ltrans.o";
    }
  }

  /** Parses the list text; {@code name} is used in the error message. */
  public static List<Entry> parse(String text, String name) {
    List<Entry> entries = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    int i = 0;
    while (i < lines.length) {
      String p = lines[i].trim();
      if (p.isEmpty() && i == lines.length - 1) {
        break; // end of file
      }
      int priority;
      try {
        priority = Integer.parseInt(p);
      } catch (NumberFormatException e) {
        throw new LtoWrapperException("corrupted ltrans output file " + name, e);
      }
      if (i + 1 >= lines.length || (i + 1 == lines.length - 1 && lines[i + 1].isEmpty())) {
        break; // priority without a name: GCC stops reading
      }
      String path = lines[i + 1];
      boolean pass = path.startsWith("*");
      entries.add(new Entry(priority, pass ? path.substring(1) : path, pass));
      i += 2;
    }
    return entries;
  }

  /** Reads and parses the list file. */
  public static List<Entry> read(Path file, String name) {
    try {
      return parse(Files.readString(file, NativeCharset.CHARSET), name);
    } catch (IOException e) {
      throw new LtoWrapperException("%<fopen%>: " + name + ": No such file or directory", e);
    }
  }
}
