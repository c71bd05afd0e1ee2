package org.offlink.runtime;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * The one charset for text that is really bytes of the operating system: paths, argv, option text
 * ({@code .opts}, response files, {@code .ofldlist}, LTRANS lists, archive member names). It is the
 * JVM's {@code sun.jnu.encoding}, the charset it decodes argv, the environment and file names with,
 * so a name read from a file and a name from the command line are the same string for the same
 * bytes. The launchers run the JVM in a byte-transparent ISO-8859-1 locale, where every byte
 * round-trips; without it (a tree without lib/locale) this is UTF-8, as before. Data that is UTF-8
 * by definition (JSON reports, symbol names) stays UTF-8.
 */
public final class NativeCharset {
  /** The charset of paths and argv in this JVM. */
  public static final Charset CHARSET = of(JvmProperties.nativeEncoding());

  private NativeCharset() {}

  /**
   * The charset named {@code name}; UTF-8 when it is missing, unknown here or ASCII (a JVM run
   * outside the launchers under {@code LANG=C}, such as a test: it cannot name a non-ASCII path
   * anyway, and UTF-8 keeps file contents intact where ASCII would replace every other byte).
   */
  static Charset of(String name) {
    try {
      Charset cs = name == null ? StandardCharsets.UTF_8 : Charset.forName(name);
      return cs.equals(StandardCharsets.US_ASCII) ? StandardCharsets.UTF_8 : cs;
    } catch (IllegalArgumentException e) {
      return StandardCharsets.UTF_8;
    }
  }
}
