package org.offlink.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class NativeCharsetTest {
  @Test
  void isTheCharsetTheJvmDecodesPathsWith() {
    assertEquals(NativeCharset.of(System.getProperty("sun.jnu.encoding")), NativeCharset.CHARSET);
    assertEquals(StandardCharsets.ISO_8859_1, NativeCharset.of("ISO-8859-1"));
    assertEquals(StandardCharsets.UTF_8, NativeCharset.of("UTF-8"));
  }

  @Test
  void aMissingOrUnknownNameMeansUtf8() {
    assertEquals(StandardCharsets.UTF_8, NativeCharset.of(null));
    assertEquals(StandardCharsets.UTF_8, NativeCharset.of("no-such-charset"));
    assertEquals(StandardCharsets.UTF_8, NativeCharset.of("bad name!"));
    assertEquals(StandardCharsets.UTF_8, NativeCharset.of("ANSI_X3.4-1968"));
  }

  @Test
  void theLaunchersLocaleCharsetCarriesEveryByteThroughAString() {
    Charset latin1 = NativeCharset.of("ISO-8859-1");
    byte[] all = new byte[256];
    for (int i = 0; i < all.length; i++) {
      all[i] = (byte) i;
    }
    // caf\351 (Latin-1) and caf\303\251 (UTF-8) alike: decoded and encoded back unchanged.
    assertArrayEquals(all, new String(all, latin1).getBytes(latin1));
  }
}
