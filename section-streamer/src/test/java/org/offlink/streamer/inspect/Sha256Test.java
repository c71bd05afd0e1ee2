package org.offlink.streamer.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The streamed digest of a file equals the in-memory one, and both match a known vector. */
class Sha256Test {
  @TempDir Path dir;

  @Test
  void knownVectorAndFileEqualsBytes() throws IOException {
    assertEquals(
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        Sha256.hex("abc".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
    byte[] big = new byte[3 * 1024 * 1024 + 17];
    new Random(17).nextBytes(big);
    Path f = dir.resolve("big");
    Files.write(f, big);
    assertEquals(Sha256.hex(big), Sha256.hex(f));
  }
}
