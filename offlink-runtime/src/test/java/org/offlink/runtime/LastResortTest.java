package org.offlink.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LastResortTest {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);

  private String err() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void anOutOfMemoryErrorIsOneLineAndStatusOne() {
    int status =
        LastResort.run(
            "t: fatal error: ",
            err,
            false,
            () -> {
              throw new OutOfMemoryError("Java heap space");
            });
    assertEquals(1, status);
    assertEquals(
        "t: fatal error: out of memory (the input needs more than the JVM's heap)\n", err());
  }

  @Test
  void aBugWithoutMessageNamesNoJavaClass() {
    int status =
        LastResort.run(
            "t: error: ",
            err,
            false,
            () -> {
              throw new NullPointerException();
            });
    assertEquals(1, status);
    assertEquals("t: error: internal error (set OFFLINK_DEBUG=1 for details)\n", err());
  }

  @Test
  void theCommandsOwnStatusPassesThrough() {
    assertEquals(3, LastResort.run("t: ", err, false, () -> 3));
    assertEquals("", err());
  }

  @Test
  void cannotRunProgramIsTranslated() {
    assertEquals(
        "cannot run 'nvptx-as': no such file or directory",
        ErrorText.of(
            new java.io.IOException(
                "Cannot run program \"nvptx-as\" (in directory \"/x\"): error=2, No such file or"
                    + " directory")));
  }
}
