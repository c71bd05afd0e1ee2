package org.offlink.ltowrapper.cache;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.Optional;
import org.offlink.ltowrapper.cache.proto.ActionResult;
import org.offlink.ltowrapper.cache.proto.Digest;
import org.offlink.ltowrapper.cache.proto.OutputFile;

/**
 * Maps a remote entry's two blobs to and from the {@code ActionResult} stored under {@code
 * ac/<key>}: two output files, {@value #OBJECT_PATH} and {@value #COUNTS_PATH}, exit code 0, and
 * with authenticated entries the writer's signature in {@code stdout_raw} ({@link EntrySigner}).
 */
final class ActionResultCodec {
  /** The output file naming the wrapper object's blob. */
  static final String OBJECT_PATH = "offload-image.o";

  /** The output file naming the counts blob ({@link CountsBlob}). */
  static final String COUNTS_PATH = "offload-image.counts";

  /** The two blobs an entry names. */
  record EntryDigests(BlobDigest object, BlobDigest counts) {}

  /**
   * What an entry says.
   *
   * @param digests the blobs it names
   * @param signature its {@code stdout_raw} bytes: a signature, or empty
   */
  record Entry(EntryDigests digests, byte[] signature) {}

  private ActionResultCodec() {}

  /** The serialized {@code ActionResult} naming {@code digests}, with {@code signature} if any. */
  static byte[] write(EntryDigests digests, byte[] signature) {
    return ActionResult.newBuilder()
        .addOutputFiles(outputFile(OBJECT_PATH, digests.object()))
        .addOutputFiles(outputFile(COUNTS_PATH, digests.counts()))
        .setExitCode(0)
        .setStdoutRaw(ByteString.copyFrom(signature))
        .build()
        .toByteArray();
  }

  /**
   * The blobs a serialized {@code ActionResult} names.
   *
   * @param what the entry's path, for messages
   * @throws RemoteCacheException when it does not parse, did not succeed or lacks an output
   */
  static Entry read(byte[] bytes, String what) throws RemoteCacheException {
    ActionResult result;
    try {
      result = ActionResult.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new RemoteCacheException(
          what + ": not an ActionResult (" + e.getMessage() + ")", false);
    }
    if (result.getExitCode() != 0) {
      throw new RemoteCacheException(what + ": exit code " + result.getExitCode(), false);
    }
    return new Entry(
        new EntryDigests(digest(result, OBJECT_PATH, what), digest(result, COUNTS_PATH, what)),
        result.getStdoutRaw().toByteArray());
  }

  private static OutputFile outputFile(String path, BlobDigest digest) {
    Digest d = Digest.newBuilder().setHash(digest.hash()).setSizeBytes(digest.sizeBytes()).build();
    return OutputFile.newBuilder().setPath(path).setDigest(d).build();
  }

  private static BlobDigest digest(ActionResult result, String path, String what)
      throws RemoteCacheException {
    Optional<OutputFile> file =
        result.getOutputFilesList().stream().filter(f -> f.getPath().equals(path)).findFirst();
    if (file.isEmpty()) {
      throw new RemoteCacheException(what + ": no output file " + path, false);
    }
    Digest d = file.get().getDigest();
    try {
      return new BlobDigest(d.getHash(), d.getSizeBytes());
    } catch (IllegalArgumentException e) {
      throw new RemoteCacheException(
          what + ": bad digest of " + path + " (" + e.getMessage() + ")", false);
    }
  }
}
