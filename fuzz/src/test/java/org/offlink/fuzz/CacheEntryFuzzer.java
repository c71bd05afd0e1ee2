package org.offlink.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.bridge.wrapper.WrapperMismatchException;
import org.offlink.bridge.wrapper.WrapperObjectVerifier;
import org.offlink.ltowrapper.cache.CacheEntryException;
import org.offlink.ltowrapper.cache.CacheEntryFile;
import org.offlink.ltowrapper.cache.CachedImage;

/**
 * The device-image cache's entry decoder ({@link CacheEntryFile#decode}), which reads entries from
 * a folder and remote caches and must refuse anything but a wrapper object offlink's writer makes
 * ({@link WrapperObjectVerifier}). The first byte picks the target (bit 1) and what the rest is
 * (bit 0): a whole entry file, or a bare object that is put into an entry with a good checksum, so
 * that mutations reach the object check instead of stopping at the CRC. The only acceptable
 * failures are {@link CacheEntryException} and {@link WrapperMismatchException}; an object the
 * verifier accepts must decode from an entry to the same bytes and counts. Anything else (an
 * unchecked exception, an {@link OutOfMemoryError} under -Xmx512m, a timeout) is a crash.
 *
 * <p>Seeds ({@code CacheEntryFuzzTestInputs/cacheEntry/}) are made by {@link CacheEntrySeeds}:
 * entries and objects of offlink's writer for small nvptx and gcn images of each GCC layout.
 */
public final class CacheEntryFuzzer {
  private CacheEntryFuzzer() {}

  /** Entry point for Jazzer's command line (scripts/fuzz.sh). */
  public static void fuzzerTestOneInput(byte[] data) throws IOException {
    if (data.length == 0) {
      return;
    }
    OffloadTarget target = (data[0] & 2) == 0 ? OffloadTarget.NVPTX : OffloadTarget.AMDGCN;
    byte[] rest = Arrays.copyOfRange(data, 1, data.length);
    if ((data[0] & 1) == 0) {
      decode(rest, target);
      return;
    }
    ImageCounts counts;
    try {
      counts = WrapperObjectVerifier.verify(rest, target);
    } catch (WrapperMismatchException e) {
      decode(entry(rest, new ImageCounts(1, 1)), target); // refused again, past the CRC
      return;
    }
    CachedImage back;
    try {
      back = CacheEntryFile.decode(entry(rest, counts), target);
    } catch (CacheEntryException e) {
      throw new AssertionError("an accepted object was refused in an entry: " + e.getMessage());
    }
    if (!Arrays.equals(back.object(), rest) || !back.counts().equals(counts)) {
      throw new AssertionError("an entry did not give back its object and counts");
    }
  }

  private static void decode(byte[] bytes, OffloadTarget target) {
    try {
      CacheEntryFile.decode(bytes, target);
    } catch (CacheEntryException e) {
      // refused cleanly
    }
  }

  /** The entry file for {@code object} with {@code counts}, checksum and all. */
  static byte[] entry(byte[] object, ImageCounts counts) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CacheEntryFile.writeTo(out, new CachedImage(object, counts));
    return out.toByteArray();
  }
}
