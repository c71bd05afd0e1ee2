package org.offlink.bridge.partition;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.offlink.bridge.image.GcnKernel;
import org.offlink.bridge.tool.OffloadTarget;

/**
 * Decodes what {@link PartitionArtifactWriter} wrote, trusting nothing: every length and count is
 * checked against what is left, and anything else is an {@link IllegalArgumentException} that says
 * what was expected and what was found (the cache then treats the entry as a miss).
 */
public final class PartitionArtifactReader {
  private PartitionArtifactReader() {}

  /** The artifact in {@code bytes}. */
  public static PartitionArtifact read(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    try {
      byte[] magic = new byte[PartitionArtifactWriter.MAGIC.length];
      b.get(magic);
      if (!Arrays.equals(magic, PartitionArtifactWriter.MAGIC)) {
        throw bad("magic OFLKPRT1", "other bytes", 0);
      }
      OffloadTarget target = target(b.get(), 8);
      b.get(new byte[3]); // padding
      int mask = b.getInt();
      int variables = nonNegative(b.getInt(), "variables", 16);
      int indirect = nonNegative(b.getInt(), "indirect functions", 20);
      int count = nonNegative(b.getInt(), "kernel count", 24);
      List<GcnKernel> kernels = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        kernels.add(kernel(b));
      }
      long length = b.getLong();
      if (length != b.remaining()) {
        throw bad("an object of " + b.remaining() + " bytes", length + " bytes", b.position() - 8);
      }
      byte[] object = new byte[(int) length];
      b.get(object);
      return new PartitionArtifact(target, mask, object, kernels, variables, indirect);
    } catch (BufferUnderflowException e) {
      throw bad("a complete partition artifact", "its end at byte " + bytes.length, bytes.length);
    }
  }

  private static GcnKernel kernel(ByteBuffer b) {
    int n = Short.toUnsignedInt(b.getShort());
    if (n > b.remaining()) {
      throw bad("a kernel name of " + n + " bytes", b.remaining() + " bytes left", b.position());
    }
    byte[] name = new byte[n];
    b.get(name);
    return new GcnKernel(
        new String(name, StandardCharsets.UTF_8),
        b.getInt(),
        b.getInt(),
        b.getInt(),
        b.getInt(),
        b.getInt());
  }

  private static OffloadTarget target(byte raw, int offset) {
    return switch (raw) {
      case PartitionArtifactWriter.NVPTX -> OffloadTarget.NVPTX;
      case PartitionArtifactWriter.AMDGCN -> OffloadTarget.AMDGCN;
      default -> throw bad("target 1 or 2", Integer.toString(raw), offset);
    };
  }

  private static int nonNegative(int value, String what, int offset) {
    if (value < 0) {
      throw bad("a non-negative " + what, Integer.toString(value), offset);
    }
    return value;
  }

  private static IllegalArgumentException bad(String expected, String found, int offset) {
    return new IllegalArgumentException(
        "partition artifact at byte " + offset + ": expected " + expected + ", found " + found);
  }
}
