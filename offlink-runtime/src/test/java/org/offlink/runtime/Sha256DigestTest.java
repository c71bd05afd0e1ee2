package org.offlink.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The JCA-free SHA-256 against FIPS 180-4's examples and against the JDK's MessageDigest. */
class Sha256DigestTest {
  private static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }

  @Test
  void fipsExamples() {
    assertEquals(
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        hex(Sha256Digest.of("abc".getBytes(StandardCharsets.US_ASCII))));
    assertEquals(
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
        hex(
            Sha256Digest.of(
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
                    .getBytes(StandardCharsets.US_ASCII))));
    assertEquals(
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        hex(Sha256Digest.of(new byte[0])));
  }

  @Test
  void agreesWithMessageDigestForEveryLengthAndSplit() throws Exception {
    Random random = new Random(42);
    for (int length = 0; length < 300; length++) {
      byte[] data = new byte[length];
      random.nextBytes(data);
      byte[] expected = MessageDigest.getInstance("SHA-256").digest(data);
      assertArrayEquals(expected, Sha256Digest.of(data), "length " + length);
      int split = length == 0 ? 0 : random.nextInt(length);
      Sha256Digest pieces = new Sha256Digest();
      pieces.update(data, 0, split);
      pieces.update(ByteBuffer.wrap(data, split, length - split));
      assertArrayEquals(expected, pieces.digest(), "length " + length + " split " + split);
    }
    byte[] big = new byte[1 << 20];
    random.nextBytes(big);
    ByteBuffer direct = ByteBuffer.allocateDirect(big.length).put(big).flip();
    Sha256Digest d = new Sha256Digest();
    d.update(direct);
    assertArrayEquals(MessageDigest.getInstance("SHA-256").digest(big), d.digest());
  }
}
