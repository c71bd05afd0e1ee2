package org.offlink.bridge.partition;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.offlink.bridge.image.GcnKernel;
import org.offlink.bridge.tool.OffloadTarget;

/**
 * Encodes a {@link PartitionArtifact} for the partition cache. All integers little-endian:
 *
 * <pre>
 * offset  size  field
 * 0       8     magic "OFLKPRT1"
 * 8       1     target: 1 nvptx, 2 amdgcn
 * 9       3     zero
 * 12      4     requires mask
 * 16      4     variables
 * 20      4     indirect functions
 * 24      4     kernel count K
 * 28      ...   K kernels: u16 name length N, N bytes of UTF-8 name, then five i32:
 *               dim0, dim1, dim2, sgpr count, vgpr count
 * ...     8     object length L
 * ...     L     object bytes (the end of the entry)
 * </pre>
 */
public final class PartitionArtifactWriter {
  static final byte[] MAGIC = "OFLKPRT1".getBytes(StandardCharsets.US_ASCII);
  static final int NVPTX = 1;
  static final int AMDGCN = 2;

  private PartitionArtifactWriter() {}

  /** The encoded artifact. */
  public static byte[] write(PartitionArtifact a) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(a.object().length + 64);
    out.writeBytes(MAGIC);
    ByteBuffer head = ByteBuffer.allocate(20).order(ByteOrder.LITTLE_ENDIAN);
    head.put((byte) (a.target() == OffloadTarget.NVPTX ? NVPTX : AMDGCN)).put(new byte[3]);
    head.putInt(a.requiresMask()).putInt(a.variables()).putInt(a.indirectFunctions());
    head.putInt(a.kernels().size());
    out.writeBytes(head.array());
    for (GcnKernel k : a.kernels()) {
      byte[] name = k.name().getBytes(StandardCharsets.UTF_8);
      if (name.length > 0xffff) {
        throw new IllegalArgumentException("kernel name longer than 65535 bytes: " + k.name());
      }
      ByteBuffer b = ByteBuffer.allocate(2 + name.length + 20).order(ByteOrder.LITTLE_ENDIAN);
      b.putShort((short) name.length).put(name);
      b.putInt(k.dim0()).putInt(k.dim1()).putInt(k.dim2()).putInt(k.sgprCount());
      b.putInt(k.vgprCount());
      out.writeBytes(b.array());
    }
    ByteBuffer len = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
    out.writeBytes(len.putLong(a.object().length).array());
    out.writeBytes(a.object());
    return out.toByteArray();
  }
}
