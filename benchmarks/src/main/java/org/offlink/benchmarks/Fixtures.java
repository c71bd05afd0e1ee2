package org.offlink.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.offlink.streamer.write.ElfObjectBuilder;
import org.offlink.streamer.elf.SectionType;

/** Deterministic inputs for the benchmarks: objects, bytes and scratch folders. */
final class Fixtures {
  private Fixtures() {}

  /** A relocatable object with {@code count} small {@code .gnu.offload_lto_*} sections. */
  static byte[] objectWithSections(int count) {
    ElfObjectBuilder b = new ElfObjectBuilder();
    byte[] body = new byte[16];
    for (int i = 0; i < count; i++) {
      body[0] = (byte) i;
      b.section(
          ".gnu.offload_lto_f" + i + ".0123456789abcdef",
          SectionType.PROGBITS,
          EnumSet.noneOf(org.offlink.streamer.write.SectionFlag.class),
          1,
          body);
    }
    return b.toBytes();
  }

  /**
   * Text-like bytes (words from a small vocabulary, fixed seed) that compress about as well as
   * GCC's LTO streams do.
   */
  static byte[] compressibleBytes(int size, long seed) {
    String[] words = {"gimple", "ssa_name", "tree", "decl", "omp_fn", "0x20", "bb", "edge", "  "};
    SplittableRandom random = new SplittableRandom(seed);
    byte[] out = new byte[size];
    int p = 0;
    while (p < size) {
      byte[] w =
          words[random.nextInt(words.length)].getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      int n = Math.min(w.length, size - p);
      System.arraycopy(w, 0, out, p, n);
      p += n;
      if (p < size) {
        out[p++] = (byte) random.nextInt(256);
      }
    }
    return out;
  }

  /** Pseudo-random bytes (fixed seed): an image the way a compressor or checksum sees one. */
  static byte[] randomBytes(int size, long seed) {
    byte[] out = new byte[size];
    new SplittableRandom(seed).nextBytes(out);
    return out;
  }

  static Path scratch(String prefix) throws IOException {
    return Files.createTempDirectory("offlink-bench-" + prefix);
  }

  /** Deletes a scratch folder made by {@link #scratch}. */
  static void delete(Path dir) throws IOException {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
