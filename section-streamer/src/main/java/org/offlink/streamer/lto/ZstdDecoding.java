package org.offlink.streamer.lto;

import com.github.luben.zstd.util.Native;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/**
 * Opens zstd streams (GCC's LTO sections) with zstd-jni's native decoder when its library loads,
 * else with aircompressor's pure-Java one, which reads the same frames.
 *
 * <p>zstd-jni unpacks its shared library into a directory and loads it from there: by default
 * {@code java.io.tmpdir}, that is {@code /tmp} whatever {@code TMPDIR} says, and on a {@code
 * noexec} {@code /tmp} the load fails with {@code UnsatisfiedLinkError}. The one command that
 * decodes zstd, {@code section-streamer}, therefore names in its {@code main} the directory
 * libiberty's rule picks ({@link TempDirectory#choose}) with {@link #unpackInto}; if the library
 * still cannot load there (that directory is {@code noexec} too, or full), decoding goes on in pure
 * Java, a little slower, instead of failing the link.
 */
public final class ZstdDecoding {
  private static volatile Path unpackDirectory;
  private static volatile Boolean nativeLoaded;

  private ZstdDecoding() {}

  /** Where zstd-jni unpacks its library (set once at start-up, before the first decode). */
  public static void unpackInto(Path directory) {
    unpackDirectory = directory;
  }

  /** A decoder of the zstd frames read from {@code compressed}. */
  public static InputStream open(InputStream compressed) throws IOException {
    if (nativeLoaded()) {
      return new com.github.luben.zstd.ZstdInputStream(compressed);
    }
    return new io.airlift.compress.zstd.ZstdInputStream(compressed);
  }

  /** Whether zstd-jni's native library is (now) loaded; tries once. */
  public static boolean nativeLoaded() {
    Boolean loaded = nativeLoaded;
    if (loaded == null) {
      loaded = tryLoad(unpackDirectory);
      nativeLoaded = loaded;
    }
    return loaded;
  }

  private static synchronized boolean tryLoad(Path directory) {
    try {
      Native.load(directory == null ? null : directory.toFile());
      return Native.isLoaded();
    } catch (LinkageError | RuntimeException e) {
      // UnsatisfiedLinkError from a noexec or unwritable directory: the pure-Java decoder serves
      return false;
    }
  }
}
