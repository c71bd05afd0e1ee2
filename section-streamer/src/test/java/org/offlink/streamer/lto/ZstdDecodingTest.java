package org.offlink.streamer.lto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ZstdDecodingTest {
  @TempDir Path dir;

  static byte[] sample() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 20000; i++) {
      sb.append("offload function ").append(i % 97).append(" kernel\n");
    }
    return sb.toString().getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void thePureJavaDecoderReadsWhatNativeZstdWrites() throws IOException {
    byte[] plain = sample();
    for (int level : new int[] {1, 3, 19}) { // GCC's -flto-compression-level range
      byte[] frame = Zstd.compress(plain, level);
      try (InputStream in =
          new io.airlift.compress.zstd.ZstdInputStream(new ByteArrayInputStream(frame))) {
        assertArrayEquals(plain, in.readAllBytes(), "level " + level);
      }
    }
  }

  @Test
  void aLibraryThatCannotBeUnpackedFallsBackToPureJava() throws Exception {
    // In a fresh JVM: zstd-jni's loader state is per process.
    Path out = dir.resolve("probe.out");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(
                List.of(
                    java.toString(),
                    "-cp",
                    System.getProperty("java.class.path"),
                    ZstdFallbackProbe.class.getName(),
                    dir.resolve("no-such-dir").toString(),
                    out.toString()))
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("probe.log").toFile())
            .start();
    p.waitFor(60, TimeUnit.SECONDS);
    assertEquals(0, p.exitValue(), Files.readString(dir.resolve("probe.log")));
    assertEquals("native=false ok=true", Files.readString(out).trim());
  }
}
