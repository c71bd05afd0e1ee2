package org.offlink.bridge.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.offlink.bridge.image.GcnKernel;
import org.offlink.bridge.tool.OffloadTarget;

class PartitionArtifactTest {
  private static final PartitionArtifact GCN =
      new PartitionArtifact(
          OffloadTarget.AMDGCN,
          0x200,
          new byte[] {0x7f, 'E', 'L', 'F', 1, 2, 3},
          List.of(
              new GcnKernel("main._omp_fn.0", 32, 1, 1, 62, 24), new GcnKernel("k", 0, 0, 0, 8, 4)),
          3,
          1);

  @Test
  void roundTrips() {
    PartitionArtifact back = PartitionArtifactReader.read(PartitionArtifactWriter.write(GCN));
    assertEquals(GCN.target(), back.target());
    assertEquals(GCN.requiresMask(), back.requiresMask());
    assertEquals(GCN.kernels(), back.kernels());
    assertEquals(GCN.variables(), back.variables());
    assertEquals(GCN.indirectFunctions(), back.indirectFunctions());
    assertArrayEquals(GCN.object(), back.object());
    byte[] ptx = "// BEGIN PREAMBLE\n".getBytes(StandardCharsets.US_ASCII);
    PartitionArtifact nv =
        PartitionArtifactReader.read(
            PartitionArtifactWriter.write(PartitionArtifact.nvptx(0, ptx)));
    assertEquals(OffloadTarget.NVPTX, nv.target());
    assertArrayEquals(ptx, nv.object());
  }

  @Test
  void everyDamageIsAnErrorSayingWhatWasExpected() {
    byte[] good = PartitionArtifactWriter.write(GCN);
    for (int cut = 0; cut < good.length; cut++) {
      byte[] bad = Arrays.copyOf(good, cut);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> PartitionArtifactReader.read(bad));
      assertTrue(e.getMessage().contains("expected"), e.getMessage());
    }
    byte[] magic = good.clone();
    magic[0] = 'X';
    assertThrows(IllegalArgumentException.class, () -> PartitionArtifactReader.read(magic));
    byte[] target = good.clone();
    target[8] = 9;
    assertThrows(IllegalArgumentException.class, () -> PartitionArtifactReader.read(target));
    byte[] longer = Arrays.copyOf(good, good.length + 1);
    assertThrows(IllegalArgumentException.class, () -> PartitionArtifactReader.read(longer));
    byte[] count = good.clone();
    count[27] = (byte) 0x80; // kernel count negative
    assertThrows(IllegalArgumentException.class, () -> PartitionArtifactReader.read(count));
  }
}
