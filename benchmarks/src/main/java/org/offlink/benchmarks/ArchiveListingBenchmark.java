package org.offlink.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.offlink.streamer.ar.Archive;
import org.offlink.streamer.ar.ArchiveMember;
import org.offlink.streamer.ar.ArchiveReader;
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
 * Listing an archive of 1,000 offload objects: the member table alone ({@link ArchiveReader}), and
 * the member table plus every member's section headers (what {@code section-streamer list} and
 * lto-wrapper's input scan do).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ArchiveListingBenchmark {
  @Param({"1000"})
  public int members;

  private Path dir;
  private Path archive;

  /** Writes the archive: each member an object with 16 offload LTO sections. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    Map<String, byte[]> content = new LinkedHashMap<>();
    byte[] member = Fixtures.objectWithSections(16);
    for (int i = 0; i < members; i++) {
      content.put(String.format("m%05d.o", i), member);
    }
    dir = Fixtures.scratch("archive");
    archive = dir.resolve("lib.a");
    Files.write(archive, ArWriter.write(content));
  }

  /** Removes the archive. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    Fixtures.delete(dir);
  }

  /** Returns the number of members. */
  @Benchmark
  public int memberTable() throws IOException {
    return ArchiveReader.read(archive).members().size();
  }

  /** Returns the number of sections over all members. */
  @Benchmark
  public int memberSectionHeaders() throws IOException {
    Archive ar = ArchiveReader.read(archive);
    int sections = 0;
    for (ArchiveMember m : ar.members()) {
      try (ElfFile elf = ElfReader.read(archive, m.dataOffset(), m.size())) {
        sections += elf.sections().size();
      }
    }
    return sections;
  }
}
