package org.offlink.runtime;

import java.nio.ByteBuffer;

/**
 * SHA-256 (FIPS 180-4) without the Java Cryptography Architecture: the first {@code
 * MessageDigest.getInstance("SHA-256")} of a JVM sets up the security providers, which costs a cold
 * lto-wrapper 20-40 ms, on every link that takes a cache key. Checked against {@code MessageDigest}
 * and the FIPS examples in its test. Not thread-safe; one digest per use.
 */
public final class Sha256Digest {
  private static final int[] K = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
  };

  private final int[] h = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
  };
  private final int[] w = new int[64];
  private final byte[] block = new byte[64];
  private int filled;
  private long length;

  /** Adds {@code len} bytes of {@code data} from {@code off}. */
  public void update(byte[] data, int off, int len) {
    length += len;
    int i = off;
    int end = off + len;
    if (filled > 0) {
      int n = Math.min(64 - filled, len);
      System.arraycopy(data, i, block, filled, n);
      filled += n;
      i += n;
      if (filled < 64) {
        return;
      }
      compress(block, 0);
      filled = 0;
    }
    for (; end - i >= 64; i += 64) {
      compress(data, i);
    }
    System.arraycopy(data, i, block, 0, end - i);
    filled = end - i;
  }

  /** Adds all of {@code data}. */
  public void update(byte[] data) {
    update(data, 0, data.length);
  }

  /** Adds the remaining bytes of {@code data}, consuming them. */
  public void update(ByteBuffer data) {
    if (data.hasArray()) {
      update(data.array(), data.arrayOffset() + data.position(), data.remaining());
      data.position(data.limit());
      return;
    }
    byte[] chunk = new byte[Math.min(data.remaining(), 8192)];
    while (data.hasRemaining()) {
      int n = Math.min(chunk.length, data.remaining());
      data.get(chunk, 0, n);
      update(chunk, 0, n);
    }
  }

  /** The 32-byte digest of everything added; the object is not used afterwards. */
  public byte[] digest() {
    long bits = length * 8;
    block[filled++] = (byte) 0x80;
    if (filled > 56) {
      java.util.Arrays.fill(block, filled, 64, (byte) 0);
      compress(block, 0);
      filled = 0;
    }
    java.util.Arrays.fill(block, filled, 56, (byte) 0);
    for (int i = 0; i < 8; i++) {
      block[56 + i] = (byte) (bits >>> (56 - 8 * i));
    }
    compress(block, 0);
    byte[] out = new byte[32];
    for (int i = 0; i < 8; i++) {
      out[4 * i] = (byte) (h[i] >>> 24);
      out[4 * i + 1] = (byte) (h[i] >>> 16);
      out[4 * i + 2] = (byte) (h[i] >>> 8);
      out[4 * i + 3] = (byte) h[i];
    }
    return out;
  }

  /** The SHA-256 of {@code data}. */
  public static byte[] of(byte[] data) {
    Sha256Digest d = new Sha256Digest();
    d.update(data);
    return d.digest();
  }

  // The rotations are written out, not Integer.rotateRight: a short-lived JVM runs this in its
  // interpreter, where each of a block's 576 rotations would be a method call (half its time).
  private void compress(byte[] in, int off) {
    for (int t = 0; t < 16; t++) {
      int p = off + 4 * t;
      w[t] =
          (in[p] & 0xff) << 24
              | (in[p + 1] & 0xff) << 16
              | (in[p + 2] & 0xff) << 8
              | in[p + 3] & 0xff;
    }
    for (int t = 16; t < 64; t++) {
      int x = w[t - 15];
      int y = w[t - 2];
      int s0 = (x >>> 7 | x << 25) ^ (x >>> 18 | x << 14) ^ (x >>> 3);
      int s1 = (y >>> 17 | y << 15) ^ (y >>> 19 | y << 13) ^ (y >>> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    int a = h[0];
    int b = h[1];
    int c = h[2];
    int d = h[3];
    int e = h[4];
    int f = h[5];
    int g = h[6];
    int k = h[7];
    for (int t = 0; t < 64; t++) {
      int s1 = (e >>> 6 | e << 26) ^ (e >>> 11 | e << 21) ^ (e >>> 25 | e << 7);
      int ch = (e & f) ^ (~e & g);
      int t1 = k + s1 + ch + K[t] + w[t];
      int s0 = (a >>> 2 | a << 30) ^ (a >>> 13 | a << 19) ^ (a >>> 22 | a << 10);
      int maj = (a & b) ^ (a & c) ^ (b & c);
      int t2 = s0 + maj;
      k = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += k;
  }
}
