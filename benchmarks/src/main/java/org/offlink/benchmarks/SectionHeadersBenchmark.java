package org.offlink.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Opening an object and reading its section header table and names ({@link ElfReader}), for an
 * object of 100 and of 10,000 sections (built with {@code ElfObjectBuilder}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SectionHeadersBenchmark {
  @Param({"100", "10000"})
  public int sections;

  private Path dir;
  private Path object;

  /** Writes the object. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Fixtures.scratch("sections");
    object = dir.resolve("big.o");
    Files.write(object, Fixtures.objectWithSections(sections));
  }

  /** Removes the object. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    Fixtures.delete(dir);
  }

  /** Returns the number of offload LTO sections found (all of them). */
  @Benchmark
  public int readSectionHeaders() throws IOException {
    try (ElfFile elf = ElfReader.read(object)) {
      return elf.sectionsWithPrefix(".gnu.offload_lto_").size();
    }
  }
}
