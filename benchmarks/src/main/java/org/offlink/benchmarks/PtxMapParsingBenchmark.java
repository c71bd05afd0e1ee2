package org.offlink.benchmarks;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.bridge.nvptx.PtxImageParser;
import org.offlink.streamer.MalformedObjectException;
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
 * Parsing linked PTX with {@link PtxImageParser} (NUL-separated chunks, {@code //:VAR_MAP} and
 * {@code //:FUNC_MAP} lines removed and collected): a synthetic image of about 1 MB.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PtxMapParsingBenchmark {
  private static final Path NAME = Path.of("bench.mkoffload");

  @Param({"1048576"})
  public int bytes;

  private byte[] ptx;

  /** Writes chunks of PTX-like text until the image reaches the size. */
  @Setup(Level.Trial)
  public void setUp() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int chunk = 0;
    while (out.size() < bytes) {
      out.writeBytes(chunk(chunk++).getBytes(StandardCharsets.US_ASCII));
      out.write(0);
    }
    ptx = out.toByteArray();
  }

  /** One object's PTX: a preamble, 8 kernels of 40 instructions, their map lines. */
  static String chunk(int n) {
    StringBuilder sb = new StringBuilder();
    sb.append("// BEGIN PREAMBLE\n.version 3.1\n.target sm_30\n.address_size 64\n");
    sb.append("// BEGIN GLOBAL VAR DEF: g").append(n).append('\n');
    sb.append(".visible .global .align 4 .u32 g").append(n).append("[1024];\n");
    sb.append("//:VAR_MAP \"g").append(n).append("\"\n");
    for (int k = 0; k < 8; k++) {
      String fn = "f" + n + "$_omp_fn$" + k;
      sb.append("// BEGIN GLOBAL FUNCTION DEF: ").append(fn).append('\n');
      sb.append(".visible .entry ").append(fn).append(" (.param .u64 %in_ar0)\n{\n");
      sb.append(".reg .u64 %r<40>;\n.reg .f32 %f<40>;\n");
      for (int i = 0; i < 40; i++) {
        sb.append("ld.global.f32 %f").append(i).append(", [%r").append(i).append("+4];\n");
      }
      sb.append("ret;\n}\n");
      sb.append("//:FUNC_MAP \"").append(fn).append("\", 0x1, 0x20, 0x20\n");
    }
    return sb.toString();
  }

  /** Returns the parsed image (chunks, variables, functions). */
  @Benchmark
  public NvptxImage parse() throws MalformedObjectException {
    return PtxImageParser.parse(ptx, NAME);
  }
}
