package org.offlink.benchmarks;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.lto.LtoCompression;
import org.offlink.streamer.lto.LtoPayload;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Decompressing an LTO section's payload with {@link LtoPayload} (zstd as GCC 12 writes it by
 * default, and zlib), for a 64 KiB and a 4 MiB section. The payload is compressed in the set-up.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class LtoDecompressionBenchmark {
  private static final Path NAME = Path.of("bench.o");

  @Param({"65536", "4194304"})
  public int size;

  @Param({"ZSTD", "ZLIB"})
  public LtoCompression compression;

  private byte[] compressed;

  /** Compresses the synthetic section. */
  @Setup(Level.Trial)
  public void setUp() {
    byte[] plain = Fixtures.compressibleBytes(size, 42);
    compressed = compression == LtoCompression.ZSTD ? Zstd.compress(plain, 3) : deflate(plain);
  }

  private static byte[] deflate(byte[] plain) {
    Deflater deflater = new Deflater(6);
    try {
      deflater.setInput(plain);
      deflater.finish();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buf = new byte[65536];
      while (!deflater.finished()) {
        out.write(buf, 0, deflater.deflate(buf));
      }
      return out.toByteArray();
    } finally {
      deflater.end();
    }
  }

  /** Returns the decompressed bytes. */
  @Benchmark
  public byte[] decompress() throws MalformedObjectException {
    return LtoPayload.decompress(NAME, 0, compressed, compression);
  }
}
