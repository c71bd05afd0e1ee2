package org.offlink.streamer.ar;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.offlink.runtime.NativeCharset;
import org.offlink.streamer.MalformedObjectException;

/**
 * Reads an {@link OffloadObjectList} with lto-wrapper's tolerance: {@code fscanf("%u ")} for the
 * count (leading white space, optional {@code +}, then all white space after it is skipped, so the
 * first name loses any leading blanks), then N lines of any length with the {@code \n} removed.
 * Text after the N-th line is ignored. A last name without its {@code \n} does not count, as with
 * GCC's {@code fgets} loop.
 *
 * <p>Errors use GCC's wording as the detail: {@code cannot read <file>} when there is no count and
 * {@code invalid format of <file>} when fewer than N names follow. A count of 0, which lto-plugin
 * never writes (GCC indexes the list at N-1 and would misbehave), reads as an empty list.
 */
public final class OffloadObjectListReader {
  private OffloadObjectListReader() {}

  /** Reads {@code file}; a missing file surfaces as the {@link IOException} from opening it. */
  public static OffloadObjectList read(Path file) throws IOException {
    return parse(file, new String(Files.readAllBytes(file), NativeCharset.CHARSET));
  }

  /** Parses {@code text}, naming {@code file} in errors. */
  public static OffloadObjectList parse(Path file, String text) throws MalformedObjectException {
    int i = skipSpace(text, 0);
    int digitsFrom = i < text.length() && text.charAt(i) == '+' ? i + 1 : i;
    int digitsTo = digitsFrom;
    while (digitsTo < text.length()
        && text.charAt(digitsTo) >= '0'
        && text.charAt(digitsTo) <= '9') {
      digitsTo++;
    }
    long count = digitsTo == digitsFrom ? -1 : parseCount(text.substring(digitsFrom, digitsTo));
    if (count < 0) {
      String found = text.substring(i, Math.min(text.length(), i + 20)).replace("\n", "\\n");
      throw new MalformedObjectException(
          file, i, "cannot read " + file + ": expected an object count, found '" + found + "'");
    }
    List<String> names = new ArrayList<>();
    int p = skipSpace(text, digitsTo);
    while (names.size() < count) {
      int nl = text.indexOf('\n', p);
      if (nl < 0) {
        throw new MalformedObjectException(
            file,
            -1,
            "invalid format of " + file + ": expected " + count + " names, found " + names.size());
      }
      names.add(text.substring(p, nl));
      p = nl + 1;
    }
    return new OffloadObjectList(names);
  }

  private static long parseCount(String digits) {
    try {
      long v = Long.parseLong(digits);
      return v > 0xffff_ffffL ? -1 : v;
    } catch (NumberFormatException tooLong) {
      return -1;
    }
  }

  private static int skipSpace(String s, int from) {
    int i = from;
    while (i < s.length() && (s.charAt(i) == ' ' || (s.charAt(i) >= '\t' && s.charAt(i) <= '\r'))) {
      i++;
    }
    return i;
  }
}
