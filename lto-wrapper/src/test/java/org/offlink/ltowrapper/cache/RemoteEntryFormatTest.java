package org.offlink.ltowrapper.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Descriptors.Descriptor;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.ltowrapper.cache.ActionResultCodec.EntryDigests;
import org.offlink.ltowrapper.cache.proto.ActionResult;
import org.offlink.ltowrapper.cache.proto.Digest;
import org.offlink.ltowrapper.cache.proto.OutputFile;

/** The bytes of a remote entry: Bazel's field numbers, the counts blob, digest checks. */
class RemoteEntryFormatTest {
  private static final EntryDigests DIGESTS =
      new EntryDigests(
          BlobDigest.of(new byte[] {1, 2, 3}),
          BlobDigest.of(CountsBlob.write(new ImageCounts(5, 6))));

  @Test
  void theMessagesUseBazelsFieldNumbers() {
    assertNumber(Digest.getDescriptor(), "hash", 1);
    assertNumber(Digest.getDescriptor(), "size_bytes", 2);
    assertNumber(OutputFile.getDescriptor(), "path", 1);
    assertNumber(OutputFile.getDescriptor(), "digest", 2);
    assertNumber(OutputFile.getDescriptor(), "is_executable", 4);
    assertNumber(ActionResult.getDescriptor(), "output_files", 2);
    assertNumber(ActionResult.getDescriptor(), "exit_code", 4);
    assertNumber(ActionResult.getDescriptor(), "stdout_raw", 5);
  }

  @Test
  void anEntryIsTheBytesBazelWouldWrite() {
    byte[] entry = ActionResultCodec.write(DIGESTS, new byte[0]);
    // Field 2 (output_files), length-delimited, first OutputFile starts with path (field 1).
    assertEquals(0x12, entry[0]);
    assertEquals(0x0a, entry[2]);
    assertEquals(
        ActionResultCodec.OBJECT_PATH, new String(entry, 4, entry[3], StandardCharsets.US_ASCII));
  }

  @Test
  void anEntryReadsBackAndFieldsBazelAddsAreSkipped() throws Exception {
    // execution_metadata (9) and stdout_raw (5), as a Bazel-written entry may hold them.
    byte[] extra = HexFormat.of().parseHex("4a00" + "2a026869");
    byte[] entry = concat(ActionResultCodec.write(DIGESTS, new byte[0]), extra);
    ActionResultCodec.Entry read = ActionResultCodec.read(entry, "ac/x");
    assertEquals(DIGESTS, read.digests());
    assertEquals("hi", new String(read.signature(), StandardCharsets.US_ASCII));
  }

  @Test
  void aSignatureTravelsInStdoutRaw() throws Exception {
    byte[] signature = "offlink-hmac-sha256:00".getBytes(StandardCharsets.US_ASCII);
    ActionResultCodec.Entry read =
        ActionResultCodec.read(ActionResultCodec.write(DIGESTS, signature), "ac/x");
    assertEquals(DIGESTS, read.digests());
    assertArrayEquals(signature, read.signature());
  }

  @Test
  void aFailedActionOrAMissingOutputIsNotAnEntry() {
    byte[] failed = ActionResult.newBuilder().setExitCode(1).build().toByteArray();
    assertEquals("ac/x: exit code 1", message(failed));
    assertEquals("ac/x: no output file offload-image.o", message(new byte[0]));
    assertTrue(message(new byte[] {(byte) 0xff}).startsWith("ac/x: not an ActionResult ("));
    byte[] badHash =
        ActionResult.newBuilder()
            .addOutputFiles(
                OutputFile.newBuilder()
                    .setPath("offload-image.o")
                    .setDigest(Digest.newBuilder().setHash("../x")))
            .build()
            .toByteArray();
    assertTrue(
        message(badHash).startsWith("ac/x: bad digest of offload-image.o"), message(badHash));
  }

  @Test
  void countsRoundTripAndAnythingElseIsRejected() throws Exception {
    byte[] blob = CountsBlob.write(new ImageCounts(12, 0));
    assertArrayEquals("functions=12\nvariables=0\n".getBytes(StandardCharsets.UTF_8), blob);
    assertEquals(new ImageCounts(12, 0), CountsBlob.read(blob));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "functions=1\n",
        "functions=01\nvariables=0\n",
        "functions=-1\nvariables=0\n",
        "functions=1\nvariables=0",
        "variables=0\nfunctions=1\n"
      })
  void badCountsBlobsAreRejected(String text) {
    assertThrows(
        RemoteCacheException.class, () -> CountsBlob.read(text.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void aBlobMustHaveTheDigestsSizeAndHash() throws Exception {
    BlobDigest d = BlobDigest.of(new byte[] {1, 2, 3});
    d.verify(new byte[] {1, 2, 3});
    RemoteCacheException shorter =
        assertThrows(RemoteCacheException.class, () -> d.verify(new byte[] {1, 2}));
    assertEquals(
        "cas/"
            + d.hash()
            + ": digest mismatch: expected 3 bytes with SHA-256 "
            + d.hash()
            + ", found 2 bytes with SHA-256 "
            + BlobDigest.of(new byte[] {1, 2}).hash(),
        shorter.getMessage());
    RemoteCacheException other =
        assertThrows(RemoteCacheException.class, () -> d.verify(new byte[] {1, 2, 4}));
    assertTrue(
        other.getMessage().contains("expected 3 bytes with SHA-256 " + d.hash()),
        other.getMessage());
  }

  private static String message(byte[] entry) {
    return assertThrows(RemoteCacheException.class, () -> ActionResultCodec.read(entry, "ac/x"))
        .getMessage();
  }

  private static void assertNumber(Descriptor message, String field, int number) {
    assertEquals(
        number, message.findFieldByName(field).getNumber(), message.getName() + "." + field);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
