package org.offlink.ltowrapper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Golden files under {@code src/test/resources/golden}; {@code -Dgolden.update=true} rewrites. */
final class Golden {
  private Golden() {}

  static void check(String name, String actual) throws IOException {
    if (Boolean.getBoolean("golden.update")) {
      Path p = Path.of("src/test/resources/golden", name);
      Files.writeString(p, actual);
      return;
    }
    try (InputStream in = Golden.class.getResourceAsStream("/golden/" + name)) {
      if (in == null) {
        throw new AssertionError("missing golden file " + name + "; actual:\n" + actual);
      }
      assertEquals(new String(in.readAllBytes(), StandardCharsets.UTF_8), actual, name);
    }
  }
}
