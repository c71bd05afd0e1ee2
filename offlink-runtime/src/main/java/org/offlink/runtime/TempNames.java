package org.offlink.runtime;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Random parts of temporary file names, as libiberty's {@code mkstemps} makes them: letters and
 * digits from a fast, non-cryptographic generator. Safety comes from creating each name with {@code
 * O_EXCL} and retrying on a clash, not from unpredictability; {@code SecureRandom} would cost every
 * GCC-facing process 15-20 ms of provider start-up before its first useful step.
 */
public final class TempNames {
  private static final String LETTERS =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

  /** How many names a caller tries before giving up, as {@code mkstemps} does (TMP_MAX-like). */
  public static final int ATTEMPTS = 100;

  private TempNames() {}

  /** {@code length} random letters and digits. */
  public static String random(int length) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    char[] out = new char[length];
    for (int i = 0; i < length; i++) {
      out[i] = LETTERS.charAt(random.nextInt(LETTERS.length()));
    }
    return new String(out);
  }
}
