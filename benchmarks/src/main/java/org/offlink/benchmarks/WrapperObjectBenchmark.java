package org.offlink.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.offlink.bridge.image.GcnImage;
import org.offlink.bridge.image.GcnKernel;
import org.offlink.bridge.wrapper.WrapperObjects;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Building the gcn wrapper object ({@link WrapperObjects#gcnElf}) around a 100 MB image, in memory
 * and written to a file: the step that replaces GCC 12's compile of a decimal C array.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class WrapperObjectBenchmark {
  @Param({"104857600"})
  public int imageBytes;

  private GcnImage image;
  private Path dir;

  /** Makes the image (pseudo-random bytes) and a kernel table of 64 kernels. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    List<GcnKernel> kernels = new ArrayList<>();
    kernels.add(new GcnKernel("_init_array", 0, 0, 0, 0, 0));
    kernels.add(new GcnKernel("_fini_array", 0, 0, 0, 0, 0));
    for (int i = 0; i < 64; i++) {
      kernels.add(new GcnKernel("main._omp_fn." + i, 0, 0, 0, 26, 6));
    }
    image = new GcnImage(Fixtures.randomBytes(imageBytes, 7), kernels, 16);
    dir = Fixtures.scratch("wrapper");
  }

  /** Removes the written object. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    Fixtures.delete(dir);
  }

  /** Returns the object's bytes. */
  @Benchmark
  public byte[] buildInMemory() {
    return WrapperObjects.gcnElf(image);
  }

  /** Returns the written file's path. */
  @Benchmark
  public Path buildAndWrite() throws IOException {
    return Files.write(dir.resolve("wrapper.o"), WrapperObjects.gcnElf(image));
  }
}
